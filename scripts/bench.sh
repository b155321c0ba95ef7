#!/usr/bin/env bash
# Runs the JMH benchmarks (benchmarks/), building the modules and the benchmark jar first when the jar is missing or
# older than the sources it is built from. Arguments go to JMH as they are:
#
#   scripts/bench.sh                          # everything, allocation per op reported (-prof gc)
#   scripts/bench.sh Cancel                   # only benchmarks whose name matches a regex
#   scripts/bench.sh Cancel -p depth=1,1000   # ... with chosen parameter values
#   scripts/bench.sh -wi 2 -i 3 -w 1 -r 1     # shorter warmup/measurement (iterations, seconds each)
#   scripts/bench.sh -f 3                     # three forks instead of one (fork-to-fork spread shows)
#   scripts/bench.sh -rf json -rff out.json   # results also to a file
#   scripts/bench.sh -h                       # JMH's help; -l lists the benchmarks
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 scripts/bench.sh   # another JDK (builds, if needed, and runs)
#
# -prof gc (allocation per op: gc.alloc.rate.norm, in B/op) is added unless a -prof option is given, or
# BENCH_GC_PROF=0. The engine benchmarks (regex io.fixmatch.benchmarks.engine: 28 forks of 5 x 1 s warmup and
# 5 x 1 s measurement) take about 6 minutes.
# See benchmarks/README.md for what each benchmark measures.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lib/java.sh
java=$JAVA_BIN

# JMH 1.37 (and Maven 3.8's Guava) use sun.misc.Unsafe, which JDK 24+ warns about at every start (JEP 498): allow
# it quietly. (The option does not exist before JDK 23.) JMH's forks inherit this JVM's options.
java_opts=()
spec=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
if [ "${spec%%.*}" -ge 24 ] 2>/dev/null; then
  java_opts+=(--sun-misc-unsafe-memory-access=allow)
fi

jar=benchmarks/target/benchmarks.jar
# Stale when any module's main sources or pom changed since (Maven then rebuilds only what benchmarks/ needs).
if [ ! -f "$jar" ] || [ -n "$(find pom.xml ./*/pom.xml ./*/src/main -newer "$jar" -print -quit)" ]; then
  echo "bench.sh: building $jar" >&2
  # maven.test.skip: a benchmark run needs no test, not even compiled. Maven's output (without the colour resets
  # Debian's Maven prints even in batch mode) goes to stderr.
  MAVEN_OPTS="${MAVEN_OPTS:-} ${java_opts[*]-}" \
    mvn -q -B -ntp -pl benchmarks -am -Dmaven.test.skip=true package 2>&1 | sed 's/\x1b\[0m//g' >&2
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

# Chronicle's and Agrona's module flags go to this JVM; JMH's forks inherit them (the loop and journal benchmarks).
exec "$java" "${FIXMATCH_JVM_FLAGS[@]}" ${java_opts[@]+"${java_opts[@]}"} -jar "$jar" "${args[@]}"
