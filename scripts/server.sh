#!/usr/bin/env bash
# Starts the fixmatch server in the foreground: builds what is missing (only Java sources, resources and poms
# trigger a build), then runs with config/fixmatch.properties, read at start: FIX 4.4 on 127.0.0.1:9878, admin
# endpoint on 127.0.0.1:9880, journal, session state and logs under ./data. SIGTERM or Ctrl-C stops it cleanly.
#   scripts/server.sh [--config FILE] [--port P] [--data DIR] [--admin-port P] [--help]
# FIXMATCH_... environment variables override the file's keys (docs/CONFIG.md); FIXMATCH_JAVA_OPTS adds JVM flags.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

build_server

config_and_args "$@"

exec "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" "${FIXMATCH_SERVER_JIT_FLAGS[@]}" -Xms2g -Xmx2g -XX:+UseG1GC ${FIXMATCH_JAVA_OPTS:-} \
  -cp "$jar:server/target/lib/*" io.fixmatch.server.ServerMain --config "$config" ${args[@]+"${args[@]}"}
