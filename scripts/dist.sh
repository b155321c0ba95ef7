#!/usr/bin/env bash
# Builds the distribution, dist/target/fixmatch-<version>.tar.gz: bin/ (fixmatch-server, fixmatch-loadgen,
# fixmatch-journal, fixmatch-book-at), lib/ (every jar), config/ (read at start), docs/. It runs with a JDK 17+ alone:
#   tar xzf fixmatch-<version>.tar.gz && fixmatch-<version>/bin/fixmatch-server
# Prints the archive's path as its last line. Maven options pass through (e.g. -o). Tests are neither compiled nor
# run (CI does); no module needs another's test classes, so this works from a fresh clone (DistributionIT runs it so).
#   scripts/dist.sh [MAVEN_OPTIONS...]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

rm -f dist/target/fixmatch-*.tar.gz
maven_package dist -Dmaven.test.skip=true "$@"
archive=$(ls dist/target/fixmatch-*.tar.gz)
echo "$PWD/$archive"
