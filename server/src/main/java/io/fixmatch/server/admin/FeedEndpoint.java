package io.fixmatch.server.admin;

import io.fixmatch.feed.codec.Channel;
import io.fixmatch.feed.publisher.FeedCounters;
import io.fixmatch.feed.publisher.FeedPublisher;
import io.fixmatch.feed.publisher.FeedSettings;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * {@code GET /feed}: the binary market data feed this process publishes (docs/FEED.md): its channels, the last
 * sequence number, datagrams and messages sent, snapshots, retransmissions served and refused; {@code enabled: false}
 * when it is off. And its {@code fixmatch_feed_*} metrics.
 */
final class FeedEndpoint implements Endpoint {
    private final FeedPublisher feed;

    FeedEndpoint(FeedPublisher feed) {
        this.feed = feed;
    }

    @Override
    public AdminResponse handle(AdminRequest request) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("enabled", feed != null);
        if (feed == null) {
            return AdminResponse.json(200, body);
        }
        FeedSettings settings = feed.settings();
        FeedCounters counters = feed.counters();
        body.put("session", settings.session());
        body.put("channel", addresses(settings.channel()));
        body.put("snapshotChannel", addresses(settings.snapshotChannel()));
        body.put("retransmitPort", counters.retransmitPort());
        body.put("lastSequence", counters.lastSequence());
        body.put("messages", counters.messages());
        body.put("datagrams", counters.datagrams());
        body.put("heartbeats", counters.heartbeats());
        body.put("snapshotCycles", counters.snapshotCycles());
        body.put("snapshotDatagrams", counters.snapshotDatagrams());
        body.put("retransmitRequests", counters.retransmitRequests());
        body.put("retransmittedMessages", counters.retransmittedMessages());
        body.put("retransmitRejects", counters.retransmitRejects());
        body.put("lostMessages", counters.lostMessages());
        body.put("sendFailures", counters.sendFailures());
        return AdminResponse.json(200, body);
    }

    private static List<String> addresses(List<InetSocketAddress> addresses) {
        return addresses.stream().map(Channel::text).toList();
    }

    static void registerMetrics(PrometheusRegistry registry, FeedPublisher feed) {
        FeedCounters counters = feed.counters();
        GaugeWithCallback.builder().name("fixmatch_feed_last_sequence")
            .help("The sequence number of the last message the binary feed published")
            .callback(callback -> callback.call(counters.lastSequence())).register(registry);
        counter(registry, "fixmatch_feed_messages_total", "Messages published on the feed's stream",
            counters, FeedCounters::messages);
        counter(registry, "fixmatch_feed_datagrams_total", "Datagrams sent on the stream (heartbeats included)",
            counters, FeedCounters::datagrams);
        counter(registry, "fixmatch_feed_heartbeats_total", "Heartbeats sent on the quiet stream",
            counters, FeedCounters::heartbeats);
        counter(registry, "fixmatch_feed_snapshot_cycles_total", "Snapshot cycles sent (every symbol's book)",
            counters, FeedCounters::snapshotCycles);
        counter(registry, "fixmatch_feed_retransmit_requests_total", "Retransmission requests received",
            counters, FeedCounters::retransmitRequests);
        counter(registry, "fixmatch_feed_retransmitted_messages_total", "Messages sent again on request",
            counters, FeedCounters::retransmittedMessages);
        counter(registry, "fixmatch_feed_retransmit_rejects_total",
            "Retransmission requests refused (out of range, too many, rate limited, another session)",
            counters, FeedCounters::retransmitRejects);
        counter(registry, "fixmatch_feed_lost_messages_total",
            "Numbers the publisher never received (a cluster gateway away): handlers recover them by a snapshot",
            counters, FeedCounters::lostMessages);
        counter(registry, "fixmatch_feed_send_failures_total", "Datagram sends that failed (a full socket buffer)",
            counters, FeedCounters::sendFailures);
    }

    private static void counter(PrometheusRegistry registry, String name, String help, FeedCounters counters,
                                ToLongFunction<FeedCounters> value) {
        CounterWithCallback.builder().name(name).help(help)
            .callback(callback -> callback.call(value.applyAsLong(counters))).register(registry);
    }
}
