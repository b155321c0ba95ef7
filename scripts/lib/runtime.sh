# Sourced by the scripts and by the distribution's bin/ commands (as bin/lib/runtime.sh): the java command and the
# JVM flags every fixmatch process needs. JAVA_HOME selects the JDK (default: java on the PATH).

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

# The FIX servers' JIT setting (fixmatch-server, its cluster-mode gateway; docs/PERFORMANCE.md, "Cost per order"):
# C2 compiles every branch of a hot method, not only the branches taken so far, instead of leaving a trap that throws
# the compiled method away the first time another branch is taken. A client's Logon takes such branches of the order
# path (parsing, the session layer, Netty's reads and writes): without this, a Logon (each one watched, the second and
# third of a server's life) sent that whole path back to the interpreter and had it compiled again: 0.4-0.8 s of
# compiler CPU and a few seconds of slower code for every session.
FIXMATCH_SERVER_JIT_FLAGS=(-XX:PerMethodTrapLimit=0)

# DEFAULT_CONFIG: "--config FILE" unless the arguments after FILE already name a configuration.
# usage: default_config FILE "$@"; then: command ${DEFAULT_CONFIG[@]+"${DEFAULT_CONFIG[@]}"} "$@"
default_config() {
  local file=$1
  shift
  DEFAULT_CONFIG=(--config "$file")
  for arg in "$@"; do
    case "$arg" in --config|--config=*) DEFAULT_CONFIG=() ;; esac
  done
}
