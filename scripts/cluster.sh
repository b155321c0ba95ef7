#!/usr/bin/env bash
# Runs the replicated venue on this machine in the foreground: three cluster nodes (the matching engine on Aeron
# Cluster, each with its own data folder and admin endpoint on 127.0.0.1:9881, 9882, 9883) and one gateway (FIX 4.4 on
# 127.0.0.1:9878, admin on 127.0.0.1:9880, as the standalone server), waits until a leader is elected and the gateway
# is ready, prints the leader, and stays until SIGTERM or Ctrl-C, which stops the gateway and then the nodes cleanly.
#   scripts/cluster.sh [--config FILE] [--data DIR] [--nodes-only [--node ID]...] [--gateway-only] [--help]
# --data DIR (default ./data/cluster): node-0, node-1, node-2 and gateway are its subfolders. --nodes-only runs the
# nodes alone (--node ID: only that one; for one node per machine), --gateway-only the gateway alone (the nodes run
# elsewhere: cluster.members in the configuration says where). docs/OPERATIONS.md, "Run it replicated".
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

config=$PWD/config/fixmatch.properties
data=$PWD/data/cluster
nodes_only=
gateway_only=
only_nodes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --config) config=$(user_path "${2:?--config needs a file}"); shift 2 ;;
    --data) data=$(user_path "${2:?--data needs a folder}"); shift 2 ;;
    --nodes-only) nodes_only=1; shift ;;
    --gateway-only) gateway_only=1; shift ;;
    --node) only_nodes+=("${2:?--node needs an id}"); shift 2 ;;
    --help|-h) sed -n '2,9s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "cluster: unknown option $1 (--config FILE, --data DIR, --nodes-only, --node ID, --gateway-only," \
         "--help)" >&2; exit 2 ;;
  esac
done
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
admin_port=$("$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -cp "$classpath" io.fixmatch.server.ClusterMembersTool \
  --config "$config" --gateway-admin)

pids=()
names=()
declare -A leader_admin=()
node_admins=()
gateway_pid=
stop_all() {
  trap - TERM INT
  local pid admin leader
  # The gateway first (its sessions log out, its last commands are answered) ...
  if [ -n "$gateway_pid" ]; then
    kill -TERM "$gateway_pid" 2>/dev/null || true
    wait "$gateway_pid" 2>/dev/null || true
  fi
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
  mkdir -p "$data/gateway"
  "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xms1g -Xmx1g -XX:+UseG1GC ${FIXMATCH_JAVA_OPTS:-} -cp "$classpath" \
    io.fixmatch.server.ServerMain --mode cluster --config "$config" --data "$data/gateway" \
    > "$data/gateway/console.log" 2>&1 &
  gateway_pid=$!
  echo "cluster: gateway starting (pid $!, log $data/gateway/console.log)"
  IFS=: read -r admin_host admin_port_number <<< "$admin_port"
  await_health gateway "$!" "$admin_host" "$admin_port_number" "$data/gateway/console.log" || stop_all
  leader=$(curl -s "http://$admin_host:$admin_port_number/cluster" | sed -n 's/^ *"leader" *: *\([0-9-]*\).*/\1/p' \
    | head -1)
  echo "cluster: ready; leader node ${leader:-?}; FIX on the gateway as in standalone (docs/OPERATIONS.md)"
fi

# Stays in the foreground; a process that stops (a node killed to try a failover, say) is reported, not restarted.
declare -A reported=()
while true; do
  for pid in ${pids[@]+"${pids[@]}"} $gateway_pid; do
    if [ -z "${reported[$pid]:-}" ] && ! kill -0 "$pid" 2>/dev/null; then
      reported[$pid]=1
      echo "cluster: process $pid stopped (the others go on)" >&2
    fi
  done
  sleep 1 &
  wait $! || true
done
