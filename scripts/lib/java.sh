# Sourced by the scripts: the java command and JVM flags (runtime.sh), building what a script needs, user paths.
# JAVA_HOME selects the JDK (default: java on the PATH). FIXMATCH_JAVA_OPTS adds or overrides JVM flags.
# FIXMATCH_SKIP_BUILD=1: never run Maven; a missing or stale jar is an error (for tests of the scripts).

. "$(dirname "${BASH_SOURCE[0]}")/runtime.sh"

# Builds the modules a script needs when their jar is missing or older than what it is built from: the poms and
# the modules' src/main (Java sources, resources). config/ is not built in: the scripts pass
# config/fixmatch.properties to the server at start, so editing it needs no rebuild.
# usage: build_if_needed MODULES JAR    (MODULES: comma-separated, as Maven's -pl takes them)
build_if_needed() {
  local module=$1 jar=$2
  if [ -f "$jar" ] && [ -z "$(find pom.xml ./*/pom.xml ./*/src/main -newer "$jar" -type f -print -quit 2>/dev/null)" ]; then
    return 0
  fi
  if [ -n "${FIXMATCH_SKIP_BUILD:-}" ]; then
    echo "$jar is missing or older than its sources, and FIXMATCH_SKIP_BUILD is set: build first" \
      "(mvn -B -ntp -pl $module -am -DskipTests package)" >&2
    exit 1
  fi
  maven_package "$module" -DskipTests
  # Maven leaves a jar whose inputs did not change as it was: mark it fresh, or an edit elsewhere (another module)
  # would make every start rebuild.
  if [ -f "$jar" ]; then touch "$jar"; fi
}

# The server module's jar, built if needed: sets jar (its class path is "$jar:server/target/lib/*").
build_server() {
  jar=server/target/fixmatch-server-0.1.0-SNAPSHOT.jar
  build_if_needed server "$jar"
}

# Runs Maven's package for MODULES (and what they need), showing its progress: one line per module as Maven starts
# it, a line every 10 s while it works (the first build also downloads the dependencies), the errors if it fails.
# usage: maven_package MODULES [MAVEN_OPTIONS...]
maven_package() {
  local module=$1 log ticker status
  shift
  echo "building $module with Maven (first start, or the sources changed; the first build downloads" \
    "dependencies and can take a few minutes) ..." >&2
  log=$(mktemp)
  (
    elapsed=0
    while sleep 10; do elapsed=$((elapsed + 10)); echo "  ... ${elapsed} s" >&2; done
  ) &
  ticker=$!
  set +e
  mvn -B -ntp -Dstyle.color=never -pl "$module" -am "$@" package 2>&1 | tee "$log" \
    | sed -un 's/^\[INFO\] Building \(fixmatch.*\)/  building \1/p' >&2
  status=${PIPESTATUS[0]}
  set -e
  kill "$ticker" 2>/dev/null || true
  wait "$ticker" 2>/dev/null || true
  if [ "$status" -ne 0 ]; then
    grep -E '^\[ERROR\]' "$log" | head -40 >&2
    echo "the build failed (full log: $log)" >&2
    exit 1
  fi
  rm -f "$log"
  echo "built $module" >&2
}

# Waits until the server started in the background as PID, writing LOG, says it is ready (its "fixmatch ready" line:
# recovery done, the FIX port accepting), never merely until its port accepts (the port listens from the start, before
# recovery). Exits 1 with the log if the server ends first, or after 60 s.
# usage: await_ready PID LOG WHO    (WHO names the script in its messages)
await_ready() {
  local pid=$1 log=$2 who=$3
  for _ in $(seq 1 600); do
    grep -q "fixmatch ready" "$log" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || { echo "$who: the server did not start:" >&2; cat "$log" >&2; exit 1; }
    sleep 0.1
  done
  echo "$who: the server was not ready within 60 s (log: $log)" >&2
  exit 1
}

# A path the user gave, made absolute from where the user stood before the script's cd (OLDPWD).
user_path() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s\n' "$OLDPWD/$1" ;;
  esac
}

# The arguments of a command that takes --config FILE and --data DIR, with their paths made absolute from where the
# user stood (a relative path must still work after the script's cd): sets config (default:
# config/fixmatch.properties) and args (every other argument, --data's path made absolute).
# usage: config_and_args "$@"; then: command --config "$config" ${args[@]+"${args[@]}"}
config_and_args() {
  config=$PWD/config/fixmatch.properties
  args=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --config|--data)
        if [ $# -gt 1 ]; then
          if [ "$1" = --config ]; then config=$(user_path "$2"); else args+=(--data "$(user_path "$2")"); fi
          shift 2
          continue
        fi ;;
      --config=*) config=$(user_path "${1#--config=}"); shift; continue ;;
      --data=*) args+=(--data "$(user_path "${1#--data=}")"); shift; continue ;;
    esac
    args+=("$1")
    shift
  done
}
