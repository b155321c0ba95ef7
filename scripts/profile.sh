#!/usr/bin/env bash
# The release load test (scripts/loadgen.sh, same flags) with the server profiled: a Java Flight Recorder recording
# (server.jfr), an async-profiler CPU flame graph (flame.html, from the Maven Central jar) and a short summary
# (profile-summary.txt: GC pauses, allocation by thread and class, hot methods), next to the load report in --out.
#   scripts/profile.sh [--rate N] [--duration S] [--warmup S] [--out DIR] [...]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

build_if_needed loadgen,server loadgen/target/fixmatch-loadgen-0.1.0-SNAPSHOT.jar

out=out/loadgen
args=()  # the loadgen's flags, without --out (passed once, below)
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=${2:?--out needs a folder}; shift 2; continue ;;
    --out=*) out=${1#--out=}; shift; continue ;;
    --host|--port|--host=*|--port=*)
      echo "profile.sh profiles the server it starts itself: --host/--port are not supported" >&2
      exit 2 ;;
  esac
  args+=("$1")
  shift
done
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
mkdir -p "$out"

server_opts="-XX:StartFlightRecording=filename=$out/server.jfr,settings=profile,dumponexit=true"
profiler_jar=$(ls loadgen/target/lib/async-profiler-*.jar 2>/dev/null | head -1 || true)
if [ -n "$profiler_jar" ] && [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ]; then
  mkdir -p "$out/async-profiler"
  unzip -o -q -j "$profiler_jar" linux-x64/libasyncProfiler.so -d "$out/async-profiler"
  server_opts="$server_opts -agentpath:$out/async-profiler/libasyncProfiler.so=start,event=cpu,interval=1ms,file=$out/flame.html"
else
  echo "async-profiler not available for $(uname -s)-$(uname -m): JFR only" >&2
fi

set +e
SERVER_JAVA_OPTS="${SERVER_JAVA_OPTS:-} $server_opts" scripts/loadgen.sh ${args[@]+"${args[@]}"} --out "$out"
status=$?
set -e

if [ -f "$out/server.jfr" ]; then
  "$JAVA_BIN" -cp "loadgen/target/fixmatch-loadgen-0.1.0-SNAPSHOT.jar" io.fixmatch.loadgen.report.JfrSummary \
    "$out/server.jfr" > "$out/profile-summary.txt"
  cat "$out/profile-summary.txt"
fi
[ -f "$out/flame.html" ] && echo "flame graph: $out/flame.html"
echo "recording: $out/server.jfr; GC log: $out/server/gc.log"
exit $status
