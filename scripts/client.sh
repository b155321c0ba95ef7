#!/usr/bin/env bash
# A trader's terminal: logs on to a fixmatch server over FIX 4.4 (QuickFIX/J) and takes commands, one a line:
#   buy AAPL 100 10.00 | sell AAPL 100 10.05 gtc | cancel 1 | replace 1 200 10.01 | status 1 | orders | help | quit
# The server's reports are printed as they arrive. Commands can also be piped in.
#   scripts/client.sh [--host H] [--port P] [--sender ID] [--help]     (default 127.0.0.1:9878 as CLIENT1)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

jar=client/target/fixmatch-client-0.1.0-SNAPSHOT.jar
build_if_needed client "$jar"
exec "$JAVA_BIN" -Xmx256m ${FIXMATCH_JAVA_OPTS:-} -cp "$jar:client/target/lib/*" io.fixmatch.client.TraderClient "$@"
