#!/usr/bin/env bash
# Builds the engine if needed and runs a small demo: a few orders in, the executions printed.
set -euo pipefail
cd "$(dirname "$0")/.."
jar=engine/target/fixmatch-engine-0.1.0-SNAPSHOT.jar
if [ ! -f "$jar" ] || [ -n "$(find engine/src engine/pom.xml pom.xml -newer "$jar" -print -quit)" ]; then
  mvn -q -B -ntp -pl engine -am -DskipTests package
fi
exec java -cp "$jar" io.fixmatch.engine.demo.EngineDemo "$@"
