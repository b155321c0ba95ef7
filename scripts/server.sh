#!/usr/bin/env bash
# Starts the fixmatch server in the foreground: builds what is missing, then runs with the embedded defaults
# (FIX 4.4 on 127.0.0.1:9878, journal and session state under ./data). SIGTERM or Ctrl-C stops it cleanly.
#   scripts/server.sh [--config FILE] [--help]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

jar=server/target/fixmatch-server-0.1.0-SNAPSHOT.jar
build_if_needed server "$jar"

# A config path given relative to where the user stood must still work after the cd above.
args=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--config" ] && [ $# -gt 1 ]; then
    case "$2" in /*) args+=("$1" "$2") ;; *) args+=("$1" "$OLDPWD/$2") ;; esac
    shift 2
  else
    args+=("$1")
    shift
  fi
done

exec "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xms2g -Xmx2g -XX:+UseG1GC ${FIXMATCH_JAVA_OPTS:-} \
  -cp "$jar:server/target/lib/*" io.fixmatch.server.ServerMain ${args[@]+"${args[@]}"}
