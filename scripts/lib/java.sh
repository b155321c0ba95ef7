# Sourced by the scripts: the java command and the JVM flags every fixmatch process needs.
# JAVA_HOME selects the JDK (default: java on the PATH). FIXMATCH_JAVA_OPTS adds or overrides flags.

JAVA_BIN="${JAVA_HOME:+$JAVA_HOME/bin/}java"

# Chronicle's documented flags for JDK 17+, Agrona's jdk.internal.misc, and no usage analytics (never phone home).
FIXMATCH_JVM_FLAGS=(
  --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED
  --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
  --add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
  --add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  -Dchronicle.analytics.disable=true
)

# Builds the modules a script needs when their jar is missing or older than the sources.
# usage: build_if_needed MODULES JAR    (MODULES: comma-separated, as Maven's -pl takes them)
build_if_needed() {
  local module=$1 jar=$2
  if [ ! -f "$jar" ] || [ -n "$(find fix-codec engine journal fix-gateway loadgen server config pom.xml -name target -prune -o \
        -newer "$jar" \( -name '*.java' -o -name '*.xml' -o -name '*.properties' \) -print 2>/dev/null | head -1)" ]; then
    echo "building $module ..." >&2
    mvn -q -B -ntp -Dstyle.color=never -pl "$module" -am -DskipTests package >&2
  fi
}
