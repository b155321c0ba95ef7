#!/usr/bin/env bash
# Runs the replicated venue on this machine in the foreground: three cluster nodes (the matching engine on Aeron
# Cluster, each with its own data folder and admin endpoint on 127.0.0.1:9881, 9882, 9883) and N gateways (gateway 0:
# FIX 4.4 on 127.0.0.1:9878, admin on 127.0.0.1:9880, as the standalone server; gateway k >= 1: FIX on 9878+k, admin on
# 9883+k), waits until a leader is elected and every gateway is ready, prints the leader, and stays until SIGTERM or
# Ctrl-C, which stops the gateways and then the nodes cleanly. Every gateway serves every session (the cluster gives
# each session to the gateway its client logs on at): a FIX engine given two gateways' addresses moves by itself.
#   scripts/cluster.sh [--config FILE] [--data DIR] [--gateways N] [--nodes-only [--node ID]...]
#                      [--gateway-only [--gateway-id K]] [--help]
# --data DIR (default ./data/cluster): node-0, node-1, node-2, gateway (gateway 0) and gateway-K are its subfolders.
# --gateways N (1..4, default 1). --nodes-only runs the nodes alone (--node ID: only that one; for one node per
# machine), --gateway-only the gateways alone (--gateway-id K: only gateway K; the nodes run elsewhere:
# cluster.members in the configuration says where). docs/OPERATIONS.md, "Run it replicated".
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

config=$PWD/config/fixmatch.properties
data=$PWD/data/cluster
nodes_only=
gateway_only=
gateway_count=1
only_gateway=
only_nodes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --config) config=$(user_path "${2:?--config needs a file}"); shift 2 ;;
    --data) data=$(user_path "${2:?--data needs a folder}"); shift 2 ;;
    --nodes-only) nodes_only=1; shift ;;
    --gateway-only) gateway_only=1; shift ;;
    --gateways) gateway_count=${2:?--gateways needs a number}; shift 2 ;;
    --gateway-id) only_gateway=${2:?--gateway-id needs a number}; shift 2 ;;
    --node) only_nodes+=("${2:?--node needs an id}"); shift 2 ;;
    --help|-h) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "cluster: unknown option $1 (--config FILE, --data DIR, --gateways N, --nodes-only, --node ID," \
         "--gateway-only, --gateway-id K, --help)" >&2; exit 2 ;;
  esac
done
if ! [[ "$gateway_count" =~ ^[1-4]$ ]]; then
  echo "cluster: --gateways takes 1 to 4, was $gateway_count" >&2
  exit 2
fi
if [ -n "$only_gateway" ] && { [ -z "$gateway_only" ] || ! [[ "$only_gateway" =~ ^[0-3]$ ]]; }; then
  echo "cluster: --gateway-id K (0 to 3) goes with --gateway-only" >&2
  exit 2
fi
if [ -n "$nodes_only" ] && [ -n "$gateway_only" ]; then
  echo "cluster: --nodes-only and --gateway-only exclude each other" >&2
  exit 2
fi

build_server
classpath="$jar:server/target/lib/*"
mkdir -p "$data"

# The members as the configuration lists them: "id host adminPort" lines, through the server's own parser (the
# same defaults and FIXMATCH_... overrides the nodes read).
members=$("$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -cp "$classpath" io.fixmatch.server.ClusterMembersTool \
  --config "$config") || exit 2
# The gateways this script runs, and where each listens and keeps its data, as the server resolves gateway K of the
# configuration (fixmatch-server --gateway-id K: gateway 0's folder is $data/gateway, gateway k's FIX port + k,
# admin port + 3 + k, folder $data/gateway-k, cluster.gatewayId + k): "adminHost adminPort fixPort id folder" lines.
gateway_ids=()
if [ -n "$only_gateway" ]; then gateway_ids=("$only_gateway"); else gateway_ids=($(seq 0 $((gateway_count - 1)))); fi
gateway_lines=$(FIXMATCH_DATA_DIR=$data/gateway "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -cp "$classpath" \
  io.fixmatch.server.ClusterMembersTool --config "$config" --gateway-ports \
  $(printf -- '--gateway-id %s ' "${gateway_ids[@]}")) || exit 2

pids=()
names=()
declare -A leader_admin=()
node_admins=()
gateway_pids=()
gateway_hosts=()
gateway_admins=()
gateway_folders=()
stop_all() {
  trap - TERM INT
  local pid admin leader
  # The gateways first (their sessions log out, their last commands are answered) ...
  for pid in ${gateway_pids[@]+"${gateway_pids[@]}"}; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in ${gateway_pids[@]+"${gateway_pids[@]}"}; do
    wait "$pid" 2>/dev/null || true
  done
  # ... then, when this script runs every node, the cluster's clean stop: the leader has every node snapshot at the
  # same position and stop (one node of several machines' cluster just stops).
  for admin in ${only_nodes[@]+} ${node_admins[@]+"${node_admins[@]}"}; do
    [ ${#only_nodes[@]} -eq 0 ] || break
    leader=$(curl -s -m 1 "http://$admin/cluster" | sed -n 's/^ *"leader" *: *\([0-9]*\).*/\1/p' | head -1)
    if [ -n "$leader" ] && [ -n "${leader_admin[$leader]:-}" ]; then
      curl -s -m 2 -X POST "http://${leader_admin[$leader]}/shutdown" > /dev/null || true
      break
    fi
  done
  for pid in ${pids[@]+"${pids[@]}"}; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  echo "cluster: stopped"
  exit 0
}
trap stop_all TERM INT

# Waits until http://HOST:PORT/health answers 200 (the process's own word that it is ready), or the process died.
await_health() {
  local name=$1 pid=$2 host=$3 port=$4 log=$5
  for _ in $(seq 1 600); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://$host:$port/health" 2>/dev/null)" = 200 ]; then
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "cluster: $name stopped while starting; its output ($log):" >&2
      tail -20 "$log" >&2
      return 1
    fi
    sleep 0.2
  done
  echo "cluster: $name not ready after 120 s (see $log)" >&2
  return 1
}

if [ -z "$gateway_only" ]; then
  while read -r id host port; do
    if [ ${#only_nodes[@]} -gt 0 ] && [[ ! " ${only_nodes[*]} " =~ " $id " ]]; then
      continue
    fi
    mkdir -p "$data/node-$id"
    "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xms1g -Xmx1g -XX:+UseG1GC ${FIXMATCH_JAVA_OPTS:-} -cp "$classpath" \
      io.fixmatch.server.NodeMain --config "$config" --node "$id" --data "$data/node-$id" \
      > "$data/node-$id/console.log" 2>&1 &
    pids+=($!)
    names+=("node $id:$host:$port")
    node_admins+=("$host:$port")
    leader_admin[$id]="$host:$port"
    echo "cluster: node $id starting (pid $!, admin http://$host:$port, log $data/node-$id/console.log)"
  done <<< "$members"
  for i in "${!pids[@]}"; do
    IFS=: read -r name host port <<< "${names[$i]}"
    await_health "$name" "${pids[$i]}" "$host" "$port" "$data/${name/ /-}/console.log" || stop_all
  done
  echo "cluster: nodes ready"
fi

if [ -z "$nodes_only" ]; then
  # Gateway k: its own folder, FIX and admin ports, and cluster.gatewayId, resolved by the server (above).
  while read -r admin_host admin_port fix_port gateway_id folder; do
    k=${gateway_ids[${#gateway_pids[@]}]}
    mkdir -p "$folder"
    FIXMATCH_DATA_DIR=$data/gateway "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xms1g -Xmx1g -XX:+UseG1GC \
      ${FIXMATCH_JAVA_OPTS:-} -cp "$classpath" io.fixmatch.server.ServerMain --mode cluster --config "$config" \
      --gateway-id "$k" < /dev/null > "$folder/console.log" 2>&1 &
    gateway_pids+=($!)
    gateway_hosts+=("$admin_host")
    gateway_admins+=("$admin_port")
    gateway_folders+=("$folder")
    echo "cluster: gateway $k (cluster.gatewayId $gateway_id) starting (pid $!, FIX $fix_port, admin" \
      "http://$admin_host:$admin_port, log $folder/console.log)"
  done <<< "$gateway_lines"
  for i in "${!gateway_pids[@]}"; do
    await_health "gateway ${gateway_ids[$i]}" "${gateway_pids[$i]}" "${gateway_hosts[$i]}" "${gateway_admins[$i]}" \
      "${gateway_folders[$i]}/console.log" || stop_all
  done
  leader=$(curl -s "http://${gateway_hosts[0]}:${gateway_admins[0]}/cluster" \
    | sed -n 's/^ *"leader" *: *\([0-9-]*\).*/\1/p' | head -1)
  echo "cluster: ready; leader node ${leader:-?}; FIX on the gateways as in standalone (docs/OPERATIONS.md)"
fi

# Stays in the foreground; a process that stops (a node killed to try a failover, say) is reported, not restarted.
declare -A reported=()
while true; do
  for pid in ${pids[@]+"${pids[@]}"} ${gateway_pids[@]+"${gateway_pids[@]}"}; do
    if [ -z "${reported[$pid]:-}" ] && ! kill -0 "$pid" 2>/dev/null; then
      reported[$pid]=1
      echo "cluster: process $pid stopped (the others go on)" >&2
    fi
  done
  sleep 1 &
  wait $! || true
done
