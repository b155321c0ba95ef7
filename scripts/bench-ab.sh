#!/usr/bin/env bash
# Compares two benchmark jars (e.g. before and after a change) on a machine whose speed drifts: both run at the same
# time, each JVM pinned to a core of its own, so both see the same host; the cores swap every round, so a slower core
# favours neither. Prints each round's throughput scores and ratio (B/A), then the geometric mean of the ratios per
# benchmark (an average-time benchmark: add -bm thrpt; without a score it stops, exit 1). Needs two cores free: hold
# the machine (nothing else running) while it runs.
#
#   scripts/bench-ab.sh OLD.jar NEW.jar 6 'CancelBenchmark.cancelFirst|MixedFlowBenchmark' -p depth=100 \
#       -p bookSize=10000 -p risk=none -f 1 -wi 5 -i 8 -w 1 -r 1 -jvmArgsAppend -XX:+UseTransparentHugePages
#
# Arguments: jar A, jar B, rounds, the benchmark regex, then JMH options for both (each option at most once: JMH
# refuses repeats; without them, the benchmarks' own settings). Two JMH runs at once need -Djmh.ignoreLock=true (set
# here).
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,14p' "$0" >&2
  exit 2
fi
jar_a=$1 jar_b=$2 rounds=$3 regex=$4
shift 4
# Chronicle's and Agrona's module flags go to the host JVMs; JMH's forks inherit them (the codec, loop and journal
# benchmarks need them).
. "$(dirname "$0")/lib/runtime.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() { # core jar result-file [jmh options]
  local core=$1 jar=$2 file=$3
  shift 3
  taskset -c "$core" "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Djmh.ignoreLock=true -jar "$jar" "$regex" "$@" 2>&1 \
    | tee "$file.log" \
    | awk '$0 ~ /thrpt/ && $1 !~ /:/ { # name[parameters] as one word, then the score (two after the mode)
        for (m = 2; $m != "thrpt"; m++) {}
        key = $1; sep = "[";
        for (i = 2; i < m; i++) { key = key sep $i; sep = "," }
        if (sep == ",") key = key "]";
        print key, $(m + 2)}' > "$file"
}

for round in $(seq "$rounds"); do
  core_a=$(( (round + 1) % 2 )) core_b=$(( round % 2 ))
  run "$core_a" "$jar_a" "$out/a" "$@" &
  run "$core_b" "$jar_b" "$out/b" "$@"
  wait
  # No score: JMH failed, the regex matched nothing, or the benchmarks run in another mode than throughput.
  for side in a b; do
    if [ ! -s "$out/$side" ]; then
      tail -20 "$out/$side.log" >&2
      echo "bench-ab: no throughput score from jar ${side^^} (its JMH output above); an average-time benchmark" \
        "compares with -bm thrpt" >&2
      exit 1
    fi
  done
  paste "$out/a" "$out/b" | awk -v r="$round" -v c="$core_a" \
    '{printf "round %d A@cpu%d %-45s A=%12.0f B=%12.0f B/A=%.3f\n", r, c, $1, $2, $4, $4 / $2}' \
    | tee -a "$out/rounds"
done
awk '{split($NF, kv, "="); sum[$4] += log(kv[2]); n[$4]++}
     END {for (b in sum) printf "%-45s B/A geometric mean %.3f over %d rounds\n", b, exp(sum[b] / n[b]), n[b]}' \
  "$out/rounds" | sort
