package io.fixmatch.benchmarks.feed;

import io.fixmatch.feed.codec.Channel;
import io.fixmatch.feed.handler.FeedHandler;
import io.fixmatch.feed.handler.FeedHealth;
import io.fixmatch.feed.handler.HandlerSettings;

import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Many subscribers of the binary market data feed in one process, for measuring what their number costs the venue
 * (docs/PERFORMANCE.md, "Binary market data feed"): N reference handlers on one multicast group (each its own socket,
 * joined, each getting every datagram), on one thread waiting in epoll for any of their sockets, so that N handlers do
 * not mean N threads.
 * Runs for the given seconds, then prints how many held books, the numbers they applied and their recoveries.
 *
 * <pre>
 *   java -cp benchmarks.jar io.fixmatch.benchmarks.feed.FeedSubscribers COUNT SECONDS STREAM SNAPSHOTS RETRANSMIT [INTERFACE]
 * </pre>
 */
public final class FeedSubscribers {
    private FeedSubscribers() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: FeedSubscribers COUNT SECONDS STREAM SNAPSHOTS RETRANSMIT [INTERFACE]");
            System.exit(2);
        }
        int count = Integer.parseInt(args[0]);
        long seconds = Long.parseLong(args[1]);
        InetSocketAddress stream = Channel.parse(args[2]).get(0);
        InetSocketAddress snapshots = Channel.parse(args[3]).get(0);
        InetSocketAddress retransmit = Channel.parse(args[4]).get(0);
        String networkInterface = args.length > 5 ? args[5] : null;
        HandlerSettings defaults = HandlerSettings.of(stream, snapshots, retransmit);
        HandlerSettings settings = new HandlerSettings(defaults.session(), stream, snapshots, retransmit,
            networkInterface, defaults.maxPerRequest(), defaults.retransmitTimeoutMs(), defaults.tooFarBehind());
        List<FeedHandler> handlers = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                handlers.add(new FeedHandler(settings));
            }
            System.out.println(count + " subscribers on " + Channel.text(stream) + " for " + seconds + " s");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            try (Selector selector = Selector.open()) {
                for (FeedHandler handler : handlers) {
                    handler.register(selector);
                }
                while (System.nanoTime() < end) {
                    selector.select(20); // the retransmission timeouts are looked at at least this often
                    for (SelectionKey key : selector.selectedKeys()) {
                        ((FeedHandler) key.attachment()).poll();
                    }
                    selector.selectedKeys().clear();
                    for (FeedHandler handler : handlers) {
                        if (handler.health().lag() > 0) {
                            handler.poll(); // a request pending: its timeout
                        }
                    }
                }
            }
            long synced = handlers.stream().filter(FeedHandler::synced).count();
            long lowest = handlers.stream().mapToLong(h -> h.health().lastApplied()).min().orElse(0);
            long highest = handlers.stream().mapToLong(h -> h.health().lastApplied()).max().orElse(0);
            long gaps = handlers.stream().map(FeedHandler::health).mapToLong(FeedHealth::gaps).sum();
            long snapshotRecoveries = handlers.stream().map(FeedHandler::health)
                .mapToLong(FeedHealth::snapshotRecoveries).sum();
            long retransmitted = handlers.stream().map(FeedHandler::health)
                .mapToLong(FeedHealth::retransmittedMessages).sum();
            System.out.printf("synced %d of %d; last applied %d..%d; gaps %d, retransmitted %d, snapshots %d"
                + " (joins included)%n", synced, count, lowest, highest, gaps, retransmitted, snapshotRecoveries);
        } finally {
            handlers.forEach(FeedHandler::close);
        }
    }
}
