#!/usr/bin/env bash
# Prints a fixmatch journal, one line per record (index, time, command), for ops and audits. Read-only: safe on the
# journal of a running server.
#   scripts/journal-dump.sh [JOURNAL_DIR]     (default: data/journal)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh
jar=server/target/fixmatch-server-0.1.0-SNAPSHOT.jar
build_if_needed server "$jar"
dir=${1:-data/journal}
case "$dir" in /*|-*) ;; *) dir="$OLDPWD/$dir"; [ -d "$dir" ] || dir=${1} ;; esac
exec "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xmx512m -cp "$jar:server/target/lib/*" \
  io.fixmatch.journal.JournalDump "$dir"
