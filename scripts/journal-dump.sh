#!/usr/bin/env bash
# Prints a fixmatch journal, one line per record (index, UTC time, session, command, decimal prices), or with --json
# one JSON object per command. Read-only: safe on the journal of a running server.
#   scripts/journal-dump.sh [--json] [--config FILE] [JOURNAL_DIR]   (default: data.dir/journal of the config,
#                                                                    config/fixmatch.properties: data/journal)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

build_server

config=config/fixmatch.properties
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --config) config=$(user_path "${2:-}"); shift $(($# > 1 ? 2 : 1)) ;;
    --config=*) config=$(user_path "${1#--config=}"); shift ;;
    -*) args+=("$1"); shift ;;
    *) args+=("$(user_path "$1")"); shift ;;
  esac
done
exec "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xmx512m ${FIXMATCH_JAVA_OPTS:-} -cp "$jar:server/target/lib/*" \
  io.fixmatch.server.JournalDumpMain --config "$config" ${args[@]+"${args[@]}"}
