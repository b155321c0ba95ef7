#!/usr/bin/env bash
# Prints the book of SYMBOL as it was at a past instant, rebuilt from the data folder's snapshots and journal by the
# server's own matching engine: after every journal record at or before a journal index (decimal or 0x hex, as
# journal-dump.sh prints them), or after every command journaled at or before a UTC time. Read-only: safe on the
# data folder of a running server (no lock, nothing written). For audits and disputes: docs/OPERATIONS.md.
#   scripts/book-at.sh SYMBOL --at JOURNAL_INDEX|UTC_TIME [--data DIR] [--json] [--config FILE] [--help]
#   e.g. scripts/book-at.sh AAPL --at 2026-11-23T14:03:07.123Z
# Default: config/fixmatch.properties (the engine's symbols, capacities and sessions must be the server's) and its
# data.dir. Exit status 0 printed, 1 no such data or the instant is outside the journal, 2 bad arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

jar=server/target/fixmatch-server-0.1.0-SNAPSHOT.jar
build_if_needed server "$jar"

# Paths given relative to where the user stood must still work after the cd above.
config=$PWD/config/fixmatch.properties
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --config|--data)
      if [ $# -gt 1 ]; then
        if [ "$1" = --config ]; then config=$(user_path "$2"); else args+=(--data "$(user_path "$2")"); fi
        shift 2
        continue
      fi ;;
    --config=*) config=$(user_path "${1#--config=}"); shift; continue ;;
    --data=*) args+=(--data "$(user_path "${1#--data=}")"); shift; continue ;;
  esac
  args+=("$1")
  shift
done
# The engine takes its whole capacity (engine.maxOrders, maxPriceLevels) at start, as the server's does.
exec "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xmx2g ${FIXMATCH_JAVA_OPTS:-} -cp "$jar:server/target/lib/*" \
  io.fixmatch.server.BookAtMain --config "$config" ${args[@]+"${args[@]}"}
