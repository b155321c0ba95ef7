#!/usr/bin/env bash
# How late and how costly the binary market data feed is, beside FIX market data (docs/PERFORMANCE.md, "Binary market
# data feed"). For each rate, two fresh servers in turn, each loaded by the loadgen with --feed (its reference handler
# on the feed): first with the loadgen's session subscribed to FIX market data (md_update beside feed_update), then
# without (--no-market-data); from the server's /proc, each one's CPU (schedstat) of the md-feed thread per feed
# message and of the gateway thread per order, their idle CPU over a quiet spell first taken off; so the gateway's CPU
# with the subscription less without it, per FIX update sent (fixmatch_marketdata_updates_total), is what FIX market
# data costs per update. Then the subscribers' run: the feed on a multicast group (TTL 0: this host only), the loadgen's
# handler and then SUBSCRIBERS-1 more (FeedSubscribers, one process) listening: md-feed's CPU per message with 1 and
# with SUBSCRIBERS subscribers, and the messages it sent again for them (retransmission runs on md-feed too). Tables
# at the end, with md-feed's system-time share (/proc stat) and the load averages. --rates none: the subscribers only.
#   scripts/feed-bench.sh [--rates 5000,45000|none] [--duration 20] [--warmup 5] [--subscribers 100]
#                         [--subscriber-rate 5000] [--group 239.255.31.1] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

rates=5000,45000
duration=20
warmup=5
subscribers=100
subscriber_rate=5000
group=239.255.31.1
out=
while [ $# -gt 0 ]; do
  case "$1" in
    --rates) rates=$2; shift 2 ;;  # none: the subscribers' runs only
    --duration) duration=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --subscribers) subscribers=$2; shift 2 ;;
    --subscriber-rate) subscriber_rate=$2; shift 2 ;;
    --group) group=$2; shift 2 ;;
    --out) out=$(user_path "$2"); shift 2 ;;
    --help|-h) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "feed-bench: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

build_server
server_jar=$jar
loadgen_jar=loadgen/target/fixmatch-loadgen-0.1.0-SNAPSHOT.jar
build_if_needed loadgen "$loadgen_jar"
bench_jar=benchmarks/target/benchmarks.jar
build_if_needed benchmarks "$bench_jar"
out=${out:-$(mktemp -d)}
mkdir -p "$out"
port=19878
admin=19880
stream=40466
snapshots=40467
retransmit=40468

server_pid=
subscribers_pid=
cleanup() {
  for pid in "$subscribers_pid" "$server_pid"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  done
}
trap cleanup EXIT

# start_server NAME EXTRA_LINES...: a fresh server on its own data folder, waits for /health 200.
start_server() {
  local name=$1
  shift
  local work="$out/$name"
  rm -rf "$work" && mkdir -p "$work"
  { cat config/fixmatch.properties; printf '%s\n' "$@"; } > "$work/fixmatch.properties"
  "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" ${SERVER_JAVA_OPTS:-} -cp "$server_jar:server/target/lib/*" \
    io.fixmatch.server.ServerMain --config "$work/fixmatch.properties" --port "$port" --data "$work/data" \
    --admin-port "$admin" > "$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 600); do
    if curl -fs "127.0.0.1:$admin/health" > /dev/null 2>&1; then return 0; fi
    kill -0 "$server_pid" 2>/dev/null || { echo "feed-bench: the server died: $work/server.log" >&2; exit 1; }
    sleep 0.2
  done
  echo "feed-bench: the server was not ready within 120 s: $work/server.log" >&2
  exit 1
}

stop_server() {
  kill -TERM "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}

# thread_ns NAME: the CPU time (ns, schedstat) of the server's threads named NAME, summed.
thread_ns() {
  local total=0 task
  for task in /proc/"$server_pid"/task/*; do
    if [ "$(cat "$task/comm" 2>/dev/null)" = "$1" ]; then
      total=$((total + $(cut -d' ' -f1 "$task/schedstat")))
    fi
  done
  echo "$total"
}

# feed_counts: "messages datagrams snapshotDatagrams retransmittedMessages" of the server's GET /feed.
feed_counts() {
  curl -fs "127.0.0.1:$admin/feed" | python3 -c 'import json,sys; f=json.load(sys.stdin); print(f["messages"],
    f["datagrams"], f["snapshotDatagrams"], f["retransmittedMessages"])'
}

# thread_ticks NAME: "user system" CPU time (clock ticks, /proc stat) of the server's threads named NAME, summed.
thread_ticks() {
  local user=0 system=0 task fields
  for task in /proc/"$server_pid"/task/*; do
    if [ "$(cat "$task/comm" 2>/dev/null)" = "$1" ]; then
      read -r -a fields <<< "$(sed 's/.*) //' "$task/stat")"
      user=$((user + fields[11])); system=$((system + fields[12]))
    fi
  done
  echo "$user $system"
}

fix_updates() {
  curl -fs "127.0.0.1:$admin/metrics" | awk '/^fixmatch_marketdata_updates_total/ {print int($2)}'
}

# measure NAME RATE LOADGEN_OPTIONS...: runs the loadgen against the running server; writes NAME.cost (key=value).
measure() {
  local name=$1 rate=$2
  shift 2
  local quiet=5
  local feed0 gw0 feed1 gw1
  feed0=$(thread_ns md-feed); gw0=$(thread_ns gateway-0)
  sleep "$quiet"
  feed1=$(thread_ns md-feed); gw1=$(thread_ns gateway-0)
  local idle_feed=$(( (feed1 - feed0) / quiet )) idle_gw=$(( (gw1 - gw0) / quiet ))
  local messages0 datagrams0 snapshots0 resent0 updates0 start load0 user0 system0
  read -r messages0 datagrams0 snapshots0 resent0 <<< "$(feed_counts)"
  read -r user0 system0 <<< "$(thread_ticks md-feed)"
  updates0=$(fix_updates); start=$(date +%s%N); load0=$(cut -d' ' -f1 /proc/loadavg)
  set +e
  "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" ${LOADGEN_JAVA_OPTS:-} -cp "$loadgen_jar:loadgen/target/lib/*" \
    io.fixmatch.loadgen.LoadgenMain --port "$port" --rate "$rate" --duration "$duration" --warmup "$warmup" --runs 1 \
    --floor-duration 5 --out "$out/$name" "$@" > "$out/$name.log" 2>&1
  local exit_status=$?
  set -e
  local seconds=$(( ($(date +%s%N) - start) / 1000000000 ))
  local feed2 gw2 messages1 datagrams1 snapshots1 resent1 updates1 user1 system1
  feed2=$(thread_ns md-feed); gw2=$(thread_ns gateway-0)
  read -r messages1 datagrams1 snapshots1 resent1 <<< "$(feed_counts)"
  read -r user1 system1 <<< "$(thread_ticks md-feed)"
  updates1=$(fix_updates)
  cat > "$out/$name.cost" <<EOF
exit=$exit_status
seconds=$seconds
load_before=$load0
load_after=$(cut -d' ' -f1 /proc/loadavg)
feed_messages=$((messages1 - messages0))
feed_datagrams=$((datagrams1 - datagrams0))
snapshot_datagrams=$((snapshots1 - snapshots0))
retransmitted_messages=$((resent1 - resent0))
feed_user_ticks=$((user1 - user0))
feed_system_ticks=$((system1 - system0))
fix_updates=$((updates1 - updates0))
feed_cpu_ns=$((feed2 - feed1 - idle_feed * seconds))
gateway_cpu_ns=$((gw2 - gw1 - idle_gw * seconds))
idle_feed_ns_per_s=$idle_feed
EOF
}

feed_keys_unicast=("marketData.feed.channel=127.0.0.1:$stream" "marketData.feed.snapshotChannel=127.0.0.1:$snapshots"
  "marketData.feed.retransmitPort=$retransmit" "marketData.feed.snapshotIntervalMs=1000")
loadgen_feed_unicast=(--feed-channel "127.0.0.1:$stream" --feed-snapshot-channel "127.0.0.1:$snapshots"
  --feed-retransmit "127.0.0.1:$retransmit")

rate_list=()
if [ "$rates" != none ]; then IFS=, read -r -a rate_list <<< "$rates"; fi
for rate in "${rate_list[@]}"; do
  for mode in fix nofix; do
    echo "rate $rate, FIX market data $([ "$mode" = fix ] && echo subscribed || echo off) ..." >&2
    start_server "$mode-$rate" "${feed_keys_unicast[@]}"
    if [ "$mode" = fix ]; then
      measure "$mode-$rate" "$rate" "${loadgen_feed_unicast[@]}"
    else
      measure "$mode-$rate" "$rate" "${loadgen_feed_unicast[@]}" --no-market-data
    fi
    stop_server
  done
done

# The subscribers: the feed on a multicast group, the loadgen's handler alone, then with SUBSCRIBERS-1 more.
feed_keys_multicast=("marketData.feed.channel=$group:$stream" "marketData.feed.snapshotChannel=$group:$snapshots"
  "marketData.feed.retransmitPort=$retransmit" "marketData.feed.multicastTtl=0")
loadgen_feed_multicast=(--feed-channel "$group:$stream" --feed-snapshot-channel "$group:$snapshots"
  --feed-retransmit "127.0.0.1:$retransmit" --no-market-data)
for count in 1 "$subscribers"; do
  echo "rate $subscriber_rate, $count subscribers on $group ..." >&2
  start_server "subscribers-$count" "${feed_keys_multicast[@]}"
  if [ "$count" -gt 1 ]; then
    # They listen through the whole measurement (its quiet spell, the floor, the warm-up, the run, the JVMs' starts),
    # then end by themselves and say how many held books and what they applied.
    "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xmx512m -cp "$bench_jar" io.fixmatch.benchmarks.feed.FeedSubscribers \
      $((count - 1)) $((duration + warmup + 40)) "$group:$stream" "$group:$snapshots" "127.0.0.1:$retransmit" \
      > "$out/subscribers-$count.subscribers.log" 2>&1 &
    subscribers_pid=$!
    sleep 5
    kill -0 "$subscribers_pid" 2>/dev/null || { echo "feed-bench: the subscribers died:" \
      "$out/subscribers-$count.subscribers.log" >&2; cat "$out/subscribers-$count.subscribers.log" >&2; exit 1; }
  fi
  measure "subscribers-$count" "$subscriber_rate" "${loadgen_feed_multicast[@]}"
  if [ -n "$subscribers_pid" ]; then
    wait "$subscribers_pid" || { echo "feed-bench: the subscribers failed:" \
      "$out/subscribers-$count.subscribers.log" >&2; exit 1; }
    subscribers_pid=
    cat "$out/subscribers-$count.subscribers.log" >&2
  fi
  stop_server
done

python3 - "$out" "$rates" "$subscribers" "$subscriber_rate" "$((warmup + duration))" <<'PY'
import json, os, sys
out, rates, subscribers, subscriber_rate = sys.argv[1], sys.argv[2].split(','), sys.argv[3], sys.argv[4]
server_seconds = int(sys.argv[5])  # the loadgen's warm-up and measured run, both against the server
def cost(name):
    values = {}
    with open(os.path.join(out, name + '.cost')) as f:
        for line in f:
            k, v = line.strip().split('=')
            values[k] = float(v) if '.' in v else int(v)
    return values
def probes(name):
    with open(os.path.join(out, name, 'summary.json')) as f:
        summary = json.load(f)
    return summary, summary['probes']
def system_share(c):
    ticks = c['feed_user_ticks'] + c['feed_system_ticks']
    return '%d%%' % round(100 * c['feed_system_ticks'] / ticks) if ticks else '-'
if rates == ['none']:
    rates = []
def pct(p, name, key):
    return '%.1f' % p[name][key] if name in p else '-'
if rates:
    print('| rate | probe | p50 µs | p99 µs | samples | verdict |')
    print('|---|---|---|---|---|---|')
for rate in rates:
    summary, p = probes('fix-' + rate)
    for probe in ('new_ack', 'md_update', 'feed_update'):
        if probe in p:
            print('| %s | %s | %s | %s | %d | %s |' % (rate, probe, pct(p, probe, 'p50_us'), pct(p, probe, 'p99_us'),
                                                  p[probe]['count'], summary['verdict']))
    summary, p = probes('nofix-' + rate)
    print('| %s | feed_update (no FIX subscription) | %s | %s | %d | %s |' % (rate, pct(p, 'feed_update', 'p50_us'),
          pct(p, 'feed_update', 'p99_us'), p['feed_update']['count'], summary['verdict']))
if rates:
    print()
    print('| rate | run | feed: md-feed CPU per message (system share) | feed messages / stream datagrams / snapshot datagrams | gateway CPU per order | FIX updates | load before -> after |')
    print('|---|---|---|---|---|---|---|')
for rate in rates:
    for run in ('fix', 'nofix'):
        c = cost(run + '-' + rate)
        print('| %s | %s | %.0f ns (%s) | %d / %d / %d | %.0f ns | %d | %s -> %s |' % (rate,
              'FIX subscribed' if run == 'fix' else 'no FIX subscription',
              c['feed_cpu_ns'] / max(1, c['feed_messages']), system_share(c), c['feed_messages'], c['feed_datagrams'],
              c['snapshot_datagrams'], c['gateway_cpu_ns'] / (int(rate) * server_seconds), c['fix_updates'],
              c['load_before'], c['load_after']))
if rates:
    print()
    print('| rate | FIX: gateway CPU per update (subscribed less not) |')
    print('|---|---|')
for rate in rates:
    with_fix, without = cost('fix-' + rate), cost('nofix-' + rate)
    fix_per_update = (with_fix['gateway_cpu_ns'] - without['gateway_cpu_ns']) / max(1, with_fix['fix_updates'])
    print('| %s | %.0f ns |' % (rate, fix_per_update))
print()
print('| subscribers | md-feed CPU per message (system share) | feed messages / stream datagrams / snapshot datagrams / messages retransmitted | feed_update p50 / p99 µs | load before -> after |')
print('|---|---|---|---|---|')
for count in ('1', subscribers):
    c = cost('subscribers-' + count)
    summary, p = probes('subscribers-' + count)
    print('| %s | %.0f ns (%s) | %d / %d / %d / %d | %s / %s | %s -> %s |' % (count,
          c['feed_cpu_ns'] / max(1, c['feed_messages']), system_share(c), c['feed_messages'], c['feed_datagrams'],
          c['snapshot_datagrams'], c['retransmitted_messages'], pct(p, 'feed_update', 'p50_us'),
          pct(p, 'feed_update', 'p99_us'), c['load_before'], c['load_after']))
print()
print('load averages at the end: ' + open('/proc/loadavg').read().strip())
PY
echo "outputs in $out" >&2
