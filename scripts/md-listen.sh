#!/usr/bin/env bash
# Listens to fixmatch's binary market data feed (docs/FEED.md) with the reference feed handler: joins through the
# snapshot channel, prints each symbol's top of book as it changes, every recovery (a gap asked for again, books taken
# from a snapshot) and every 5 s the feed's health (messages applied, gaps, retransmissions, snapshots, duplicates,
# lag, the last datagram's age). Where the feed goes comes from the server's configuration (marketData.feed.*).
#   scripts/md-listen.sh [--symbol S]... [--config FILE] [--channel HOST:PORT] [--snapshot-channel HOST:PORT]
#                        [--retransmit HOST:PORT|none] [--session NAME] [--interface NAME] [--health-every S]
#                        [--duration S] [--help]
# Default config: config/fixmatch.properties (loopback: stream 127.0.0.1:40456, snapshots :40457, retransmission
# :40458). A unicast stream port takes one listener: the publisher sends to each address of marketData.feed.channel.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

jar=feed-handler/target/fixmatch-feed-handler-0.1.0-SNAPSHOT.jar
build_if_needed feed-handler "$jar"

config=config/fixmatch.properties
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --config) config=$(user_path "${2:-}"); shift $(($# > 1 ? 2 : 1)) ;;
    --config=*) config=$(user_path "${1#--config=}"); shift ;;
    *) args+=("$1"); shift ;;
  esac
done
exec "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xmx256m ${FIXMATCH_JAVA_OPTS:-} -cp "$jar:feed-handler/target/lib/*" \
  io.fixmatch.feed.handler.MdListen --config "$config" ${args[@]+"${args[@]}"}
