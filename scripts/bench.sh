#!/usr/bin/env bash
# Runs the JMH benchmarks (benchmarks/), building the engine and the benchmark jar first when they are missing or
# older than their sources. Arguments go to JMH as they are:
#
#   scripts/bench.sh                          # everything, allocation per op reported (-prof gc)
#   scripts/bench.sh Cancel                   # benchmarks whose name matches a regex
#   scripts/bench.sh Cancel -p depth=1,1000   # ... with chosen parameter values
#   scripts/bench.sh -wi 2 -i 3 -w 1 -r 1     # shorter warmup/measurement (iterations, seconds)
#   scripts/bench.sh -h                       # JMH's help; -l lists the benchmarks
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 scripts/bench.sh   # another JDK (builds and runs with it)
#
# -prof gc (allocation per op: gc.alloc.rate.norm, B/op) is added unless a -prof option is given; set
# BENCH_GC_PROF=0 to leave it out. A full default run takes about 7 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

java=java
if [ -n "${JAVA_HOME:-}" ]; then
  java="$JAVA_HOME/bin/java"
fi

jar=benchmarks/target/benchmarks.jar
if [ ! -f "$jar" ] || [ -n "$(find pom.xml engine/pom.xml engine/src benchmarks/pom.xml benchmarks/src \
    -newer "$jar" -print -quit)" ]; then
  echo "bench.sh: building $jar" >&2
  # maven.test.skip: the tests are not needed for a benchmark run, not even compiled.
  mvn -q -B -ntp -pl benchmarks -am -Dmaven.test.skip=true package
fi

add_gc_prof=${BENCH_GC_PROF:-1}
for arg in "$@"; do
  case "$arg" in
    -prof|-h|-help|--help|-l|-lp|-lprof|-lrf) add_gc_prof=0 ;;
  esac
done

args=("$@")
if [ "$add_gc_prof" = 1 ]; then
  args+=(-prof gc)
fi
exec "$java" -jar "$jar" "${args[@]}"
