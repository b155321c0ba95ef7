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

build_server

config_and_args "$@"
# The engine takes its whole capacity (engine.maxOrders, maxPriceLevels) at start, as the server's does.
exec "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xmx2g ${FIXMATCH_JAVA_OPTS:-} -cp "$jar:server/target/lib/*" \
  io.fixmatch.server.BookAtMain --config "$config" ${args[@]+"${args[@]}"}
