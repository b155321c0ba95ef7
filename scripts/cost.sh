#!/usr/bin/env bash
# What a running server costs per order against a bare loopback echo, at a few rates (docs/PERFORMANCE.md, "Cost per
# order"): for each rate the independent prober (new order and cancel alternately, open loop) first measures a bare
# echo process placed like the server (same CPU affinity), the server stopped (SIGSTOP) meanwhile, then the server;
# each one's CPU and page faults per message from its own /proc counters, its system calls per message (perf stat),
# the round trips' p50/p99/p99.9, the whole machine's busy CPUs; then one table of all rates, with the load averages.
#   scripts/cost.sh [--port 9878] [--server-pid PID] [--rates 5000,20000,45000] [--seconds 15] [--warmup 5]
#                   [--echo-port 9990] [--wait park|yield|spin] [--no-syscalls] [--out DIR]
# The server must be logged-off for the prober's session (LOADGEN by default: config/fixmatch.properties has it).
# Without --server-pid, the process listening on --port is taken. System calls need perf (linux-perf) and the right
# to watch the server (root, or kernel.perf_event_paranoid <= 1 for one's own processes); --no-syscalls skips them.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

port=9878
pid=
rates=5000,20000,45000
seconds=15
warmup=5
echo_port=9990
wait_mode=park
syscalls=--syscalls
out=
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port=$2; shift 2 ;;
    --server-pid) pid=$2; shift 2 ;;
    --rates) rates=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --echo-port) echo_port=$2; shift 2 ;;
    --wait) wait_mode=$2; shift 2 ;;
    --no-syscalls) syscalls=; shift ;;
    --out) out=$(user_path "$2"); shift 2 ;;
    --help|-h) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "cost: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

if [ -z "$pid" ]; then
  pid=$(ss -Htlnp "sport = :$port" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)
  [ -n "$pid" ] || { echo "cost: nothing listens on port $port (or its process is not ours to see): --server-pid" >&2; exit 1; }
fi
kill -0 "$pid" 2>/dev/null || { echo "cost: no process $pid" >&2; exit 1; }
if [ -n "$syscalls" ] && ! command -v perf > /dev/null; then
  echo "cost: perf is not installed (apt-get install linux-perf), so system calls cannot be counted: --no-syscalls" >&2
  exit 1
fi

prober_jar=benchmarks/target/benchmarks.jar
build_if_needed benchmarks "$prober_jar"
out=${out:-$(mktemp -d)}
mkdir -p "$out"

# The echo where the server may run: the server's CPU affinity.
cpus=$(taskset -pc "$pid" | sed 's/.*: //')
taskset -c "$cpus" "$JAVA_BIN" -Xmx256m -cp "$prober_jar" io.fixmatch.benchmarks.prober.LoopbackEcho "$echo_port" \
  > "$out/echo.log" 2>&1 &
echo_pid=$!
trap 'kill "$echo_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q "loopback echo on" "$out/echo.log" && break; sleep 0.1; done
grep -q "loopback echo on" "$out/echo.log" || { echo "cost: the echo did not start:" >&2; cat "$out/echo.log" >&2; exit 1; }

echo "cost: server pid $pid on port $port (CPUs $cpus), echo pid $echo_pid on $echo_port; $(nproc) CPUs," \
  "${warmup} s warm-up + ${seconds} s per phase, rates $rates; output in $out"
summary=()
for rate in ${rates//,/ }; do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "== $rate msg/s (load average before: $load)"
  "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xmx512m -cp "$prober_jar" io.fixmatch.benchmarks.prober.OpenLoopProber \
    --port "$port" --rate "$rate" --seconds "$seconds" --warmup "$warmup" --wait "$wait_mode" \
    --server-pid "$pid" --freeze-server --echo-port "$echo_port" --echo-pid "$echo_pid" $syscalls \
    | tee "$out/prober-$rate.txt"
  line=$(sed -n 's/^cost: //p' "$out/prober-$rate.txt")
  [ -n "$line" ] || { echo "cost: the prober printed no figures at $rate msg/s" >&2; exit 1; }
  summary+=("$line load=${load// /\/}")
done

echo
echo "cost per message (CPU: each process's own user + system time over its phase, warm-up included; latency: µs)"
printf '%8s | %9s %9s %6s | %8s %8s | %8s | %18s | %24s | %11s | %s\n' rate "echo CPU" "server" ratio "echo sc" \
  "server sc" "server pf" "echo p50/p99/p99.9" "server p50/p99/p99.9" "busy CPUs" "load average"
for line in "${summary[@]}"; do
  (
    for pair in $line; do declare "${pair%%=*}=${pair#*=}"; done
    printf '%8s | %7s µs %6s µs %5sx | %8s %8s | %8s | %18s | %24s | %4s / %4s | %s\n' "$rate" "$echo_cpu_us" \
      "$server_cpu_us" "$(awk "BEGIN { printf \"%.2f\", $server_cpu_us / $echo_cpu_us }")" "$echo_syscalls" \
      "$server_syscalls" "$server_faults" "$echo_p50/$echo_p99/$echo_p999" "$server_p50/$server_p99/$server_p999" \
      "$machine_busy_echo" "$machine_busy_server" "$load"
  )
done
echo "(sc: system calls per message; pf: the server's page faults per message; busy CPUs: the whole machine, echo phase / server phase)"
