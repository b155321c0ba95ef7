package io.fixmatch.feed.handler;

import io.fixmatch.feed.codec.Channel;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code scripts/md-listen.sh}: the reference handler listening to a fixmatch feed (docs/FEED.md), printing each
 * symbol's top of book as it changes ({@link TopOfBookPrinter}), every recovery as it happens and, every few seconds,
 * the feed's health (messages applied, gaps, retransmissions, snapshots, duplicates, the lag behind the stream).
 * Where it listens comes from the server's configuration ({@code marketData.feed.*} of {@code --config}), or the
 * options. Runs until stopped (Ctrl-C) or for {@code --duration} seconds; exit 0, or 1 if it never held books.
 */
public final class MdListen {
    static final String USAGE = """
        usage: md-listen [--symbol S]... [--config FILE] [--channel HOST:PORT] [--snapshot-channel HOST:PORT]
                         [--retransmit HOST:PORT|none] [--session NAME] [--interface NAME] [--health-every S]
                         [--duration S]
          --symbol S            print this symbol's top of book (again for more; default: every symbol)
          --config FILE         the server's configuration: its marketData.feed.* keys say where the feed goes
          --channel HOST:PORT   the stream: the multicast group, or the unicast address the publisher sends to
                                (the first of marketData.feed.channel by default)
          --snapshot-channel HOST:PORT   the snapshot channel, the same way
          --retransmit HOST:PORT|none    the retransmission service (marketData.feed.retransmitHost/Port)
          --session NAME        the feed's session name (marketData.feed.session, FIXMATCH)
          --interface NAME      the network interface to join a multicast group on
          --health-every S      the health line every S seconds (default 5; 0: never)
          --duration S          stop after S seconds (default: run until stopped)
        """;

    private MdListen() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    /** The tool; returns its exit status (2: bad options). */
    public static int run(String[] args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        Options options;
        HandlerSettings settings;
        try {
            options = Options.parse(args);
            if (options.help) {
                out.print(USAGE);
                return 0;
            }
            settings = options.settings();
        } catch (IllegalArgumentException e) {
            err.println("md-listen: " + e.getMessage());
            err.print(USAGE);
            return 2;
        }
        out.println("md-listen: stream " + Channel.text(settings.stream()) + ", snapshots "
            + Channel.text(settings.snapshots()) + ", retransmission "
            + (settings.retransmit() == null ? "none" : Channel.text(settings.retransmit())) + ", session "
            + settings.session());
        try (FeedHandler handler = new FeedHandler(settings)) {
            handler.observer(new TopOfBookPrinter(handler, options.symbols, out));
            handler.start();
            // Stopped (Ctrl-C): the health as it ended.
            Thread onStop = new Thread(() -> out.println(TopOfBookPrinter.now() + " health: " + health(handler)));
            Runtime.getRuntime().addShutdownHook(onStop);
            try {
                long start = System.nanoTime();
                long nextHealth = start + TimeUnit.SECONDS.toNanos(options.healthEverySeconds);
                int recoveriesSeen = 0;
                while (options.durationSeconds <= 0
                    || System.nanoTime() - start < TimeUnit.SECONDS.toNanos(options.durationSeconds)) {
                    TimeUnit.MILLISECONDS.sleep(100);
                    List<Recovery> recoveries = handler.recoveries();
                    for (Recovery recovery : recoveries.subList(recoveriesSeen, recoveries.size())) {
                        out.println(TopOfBookPrinter.now() + " recovery: " + describe(recovery));
                    }
                    recoveriesSeen = recoveries.size();
                    if (options.healthEverySeconds > 0 && System.nanoTime() - nextHealth >= 0) {
                        out.println(TopOfBookPrinter.now() + " health: " + health(handler));
                        nextHealth += TimeUnit.SECONDS.toNanos(options.healthEverySeconds);
                    }
                }
                out.println(TopOfBookPrinter.now() + " health: " + health(handler));
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(onStop);
                } catch (IllegalStateException e) {
                    // the JVM is stopping: the hook says the health
                }
            }
            return handler.health().snapshotRecoveries() > 0 ? 0 : 1;
        }
    }

    private static String describe(Recovery recovery) {
        return recovery.kind() == Recovery.Kind.SNAPSHOT
            ? "books from a snapshot, the stream applied from message " + recovery.from()
            : "asked for messages " + recovery.from() + ".." + (recovery.from() + recovery.count() - 1)
                + " again (a gap)";
    }

    private static String health(FeedHandler handler) {
        FeedHealth health = handler.health();
        long last = health.lastDatagramNanos();
        String silence = last == 0 ? "nothing heard yet"
            : "last datagram " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - last) + " ms ago";
        return (handler.synced() ? "" : "NOT SYNCED (waiting for a whole snapshot cycle), ") + health + ", "
            + health.heartbeats() + " heartbeats; " + silence;
    }

    /** The command line. */
    static final class Options {
        final Set<String> symbols = new LinkedHashSet<>();
        Path config;
        String channel;
        String snapshotChannel;
        String retransmit;
        String session;
        String interfaceName;
        long healthEverySeconds = 5;
        long durationSeconds;
        boolean help;

        static Options parse(String[] args) {
            Options options = new Options();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (arg.equals("--help") || arg.equals("-h")) {
                    options.help = true;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(arg.startsWith("--") ? arg + " needs a value"
                        : "unknown argument " + arg);
                }
                String value = args[++i];
                switch (arg) {
                    case "--symbol" -> options.symbols.add(value);
                    case "--config" -> options.config = Path.of(value);
                    case "--channel" -> options.channel = value;
                    case "--snapshot-channel" -> options.snapshotChannel = value;
                    case "--retransmit" -> options.retransmit = value;
                    case "--session" -> options.session = value;
                    case "--interface" -> options.interfaceName = value;
                    case "--health-every" -> options.healthEverySeconds = seconds(arg, value);
                    case "--duration" -> options.durationSeconds = seconds(arg, value);
                    default -> throw new IllegalArgumentException("unknown option " + arg);
                }
            }
            return options;
        }

        private static long seconds(String option, String value) {
            try {
                long seconds = Long.parseLong(value);
                if (seconds >= 0) {
                    return seconds;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new IllegalArgumentException(option + " takes seconds (0 or more), was " + value);
        }

        /** The options over the configuration's keys over the server's defaults. */
        HandlerSettings settings() throws IOException {
            Properties keys = new Properties();
            if (config != null) {
                try (InputStream in = Files.newInputStream(config)) {
                    keys.load(in);
                }
            }
            InetSocketAddress stream = first("--channel", channel,
                keys.getProperty("marketData.feed.channel", "127.0.0.1:40456"));
            InetSocketAddress snapshots = first("--snapshot-channel", snapshotChannel,
                keys.getProperty("marketData.feed.snapshotChannel", "127.0.0.1:40457"));
            String retransmitText = retransmit != null ? retransmit
                : keys.getProperty("marketData.feed.retransmitHost", "127.0.0.1") + ":"
                    + keys.getProperty("marketData.feed.retransmitPort", "40458");
            InetSocketAddress retransmitService = retransmitText.equals("none") || retransmitText.endsWith(":-1")
                ? null : first("--retransmit", retransmitText, null);
            String name = session != null ? session
                : keys.getProperty("marketData.feed.session", HandlerSettings.DEFAULT_SESSION);
            HandlerSettings defaults = HandlerSettings.of(stream, snapshots, retransmitService);
            return new HandlerSettings(name, stream, snapshots, retransmitService, interfaceName,
                defaults.maxPerRequest(), defaults.retransmitTimeoutMs(), defaults.tooFarBehind());
        }

        /** The option's address, or the first address of the configured channel. */
        private static InetSocketAddress first(String option, String given, String configured) {
            String text = given != null ? given : configured;
            List<InetSocketAddress> addresses;
            try {
                addresses = Channel.parse(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(option + ": " + e.getMessage());
            }
            if (addresses.isEmpty()) {
                throw new IllegalArgumentException(option + ": no address in '" + text + "'");
            }
            return addresses.get(0);
        }
    }
}
