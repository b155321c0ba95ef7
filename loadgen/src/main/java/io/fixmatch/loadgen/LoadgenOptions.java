package io.fixmatch.loadgen;

import io.fixmatch.feed.codec.Channel;
import io.fixmatch.loadgen.pacing.Pacer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Command-line options of the load generator. The flags named in the release checklist ({@code --rate},
 * {@code --duration}, {@code --warmup}, {@code --host}, {@code --port}, {@code --out}, {@code --help}) and every
 * other flag that existed before are a stable interface.
 *
 * @param rateGiven whether {@code --rate} was given (a recorded flow keeps its own pacing unless it was)
 */
public record LoadgenOptions(int rate, boolean rateGiven, int durationSeconds, int warmupSeconds, int runs,
                             String host, int port, Path out, List<String> symbols, int priceScale,
                             String senderCompId, String targetCompId, int cpu, long seed, Path baseline,
                             double maxRatio, String baselinePercentile, List<Threshold> thresholds,
                             int timeoutSeconds, int floorDurationSeconds, int parkMarginMicros, Pacer.Wait waitMode,
                             long timerSlackNanos, double maxSendLagMicros, double floorRatio, Path flow,
                             Path serverConfig, Path serverLog, int sendBufferBytes, boolean marketData,
                             FeedAddresses feed) {

    public static final int DEFAULT_RATE = 45_000;
    /** A phase's send-lag p99 may reach this share of its round-trip p99 (or --max-send-lag) and stay valid. */
    public static final double SEND_LAG_SHARE = 0.1;
    /** The achieved rate must reach this share of the scheduled rate. */
    public static final double MIN_RATE_SHARE = 0.99;

    /** A latency ceiling from the command line: {@code probe.percentile=micros}, e.g. {@code new_ack.p99=1000}. */
    public record Threshold(String probe, String percentile, double maxMicros) {
        static Threshold parse(String text) {
            int dot = text.indexOf('.');
            int equals = text.indexOf('=');
            if (dot < 1 || equals < dot + 2) {
                throw new IllegalArgumentException("--threshold wants probe.percentile=micros, e.g. new_ack.p99=1000;"
                    + " was " + text);
            }
            String percentile = text.substring(dot + 1, equals);
            requirePercentile("--threshold", percentile);
            double micros;
            try {
                micros = Double.parseDouble(text.substring(equals + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--threshold " + text + ": the ceiling is not a number of µs");
            }
            return new Threshold(text.substring(0, dot), percentile, micros);
        }
    }

    /**
     * Where the binary market data feed is heard (docs/FEED.md): the stream and snapshot addresses the handler listens
     * on and the retransmission service, each "host:port".
     */
    public record FeedAddresses(String stream, String snapshots, String retransmit) {
        /** The server's defaults (config/fixmatch.properties, marketData.feed.*). */
        static final FeedAddresses DEFAULTS = new FeedAddresses("127.0.0.1:40456", "127.0.0.1:40457",
            "127.0.0.1:40458");
    }

    public static final List<String> PERCENTILES = List.of("p50", "p90", "p99", "p999", "p9999", "worst");

    /** The help text. */
    public static String usage() {
        return new CommandLine(new Flags()).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    /** Parses the flags; null when help was asked for. Bad flags throw, naming the flag. */
    public static LoadgenOptions parse(String[] args) {
        Flags flags = new Flags();
        CommandLine commandLine = new CommandLine(flags);
        try {
            commandLine.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            String message = e.getMessage();
            if (e instanceof CommandLine.UnmatchedArgumentException unmatched
                && !unmatched.getSuggestions().isEmpty()) {
                message += "; did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?";
            }
            throw new IllegalArgumentException(message);
        }
        if (commandLine.isUsageHelpRequested()) {
            return null;
        }
        return flags.toOptions();
    }

    /** Orders per measured run of the server phase. */
    public long iterationsPerRun(double meanRate) {
        return Math.max(1, Math.round(meanRate * durationSeconds / runs));
    }

    /** Requests per measured run of the floor phase. */
    public long floorIterationsPerRun(double meanRate) {
        return Math.max(1, Math.round(meanRate * floorDurationSeconds / runs));
    }

    public int warmupIterations(double meanRate) {
        return (int) Math.max(1, Math.round(meanRate * warmupSeconds));
    }

    private static String requirePercentile(String flag, String value) {
        if (!PERCENTILES.contains(value)) {
            throw new IllegalArgumentException(flag + ": percentile must be one of " + PERCENTILES + ", was " + value);
        }
        return value;
    }

    /** The flags as picocli reads them. */
    @Command(name = "loadgen", sortOptions = false, usageHelpWidth = 118,
        description = {"Replays an order flow over FIX 4.4 at a fixed rate and measures the client-observed round trip",
            "of every request with JLBH (corrected for coordinated omission). First the floor: the same byte stream",
            "at the same rate through a bare loopback TCP echo, alone; then the server. The generator's own send lag",
            "and CPU are measured too: a run whose send-lag p99 exceeds --max-send-lag is INVALID."},
        footer = {"Exit status: 0 PASS; 1 errors in the run (missing, unexpected or rejected responses); 2 bad options;",
            "3 FAIL: a threshold, the floor gate, the baseline or the rate (below 99%% of the schedule) breached;",
            "4 INVALID: the generator could not keep its schedule (send-lag p99 above --max-send-lag and 10%% of the",
            "round-trip p99 in a phase), so its latencies measure the generator, not the server. Errors win over",
            "INVALID, INVALID over FAIL."})
    static final class Flags {
        @Option(names = {"--help", "-h"}, usageHelp = true, description = "this text")
        boolean help;
        @Option(names = "--rate", paramLabel = "N", description = "orders per second (default 45000; with --flow: "
            + "rescale the recorded pacing to this mean rate)")
        Integer rate;
        @Option(names = "--duration", paramLabel = "S", defaultValue = "60",
            description = "measured seconds, split over the runs (default ${DEFAULT-VALUE})")
        int duration;
        @Option(names = "--warmup", paramLabel = "S", defaultValue = "10",
            description = "warm-up seconds before measuring, per phase (default ${DEFAULT-VALUE})")
        int warmup;
        @Option(names = "--runs", paramLabel = "N", defaultValue = "3",
            description = "measured runs (default ${DEFAULT-VALUE})")
        int runs;
        @Option(names = "--host", paramLabel = "H", defaultValue = "127.0.0.1",
            description = "FIX acceptor host (default ${DEFAULT-VALUE})")
        String host;
        @Option(names = "--port", paramLabel = "P", defaultValue = "9878",
            description = "FIX acceptor port (default ${DEFAULT-VALUE})")
        int port;
        @Option(names = "--out", paramLabel = "DIR", defaultValue = "out/loadgen", description = "report folder: "
            + "summary.json, HdrHistogram logs, percentiles.html (default ${DEFAULT-VALUE})")
        Path out;
        @Option(names = "--symbols", paramLabel = "A,B,..", defaultValue = "AAPL,MSFT,GOOG", split = ",",
            hideParamSyntax = true, description = "symbols to trade (default ${DEFAULT-VALUE})")
        List<String> symbols;
        @Option(names = "--price-scale", paramLabel = "N", defaultValue = "2",
            description = "decimals of the symbols' prices (default ${DEFAULT-VALUE}: tick 0.01)")
        int priceScale;
        @Option(names = "--sender", paramLabel = "ID", defaultValue = "LOADGEN",
            description = "our SenderCompID (default ${DEFAULT-VALUE})")
        String sender;
        @Option(names = "--target", paramLabel = "ID", defaultValue = "FIXMATCH",
            description = "the acceptor's CompID (default ${DEFAULT-VALUE})")
        String target;
        @Option(names = "--cpu", paramLabel = "N", defaultValue = "-1",
            description = "pin the sending thread to CPU N (default: not pinned)")
        int cpu;
        @Option(names = "--seed", paramLabel = "N", defaultValue = "42",
            description = "order flow seed (default ${DEFAULT-VALUE})")
        long seed;
        @Option(names = "--flow", paramLabel = "FILE", description = "replay a recorded flow instead of the seeded "
            + "one: a journal dump (scripts/journal-dump.sh --json) or a FIX message log, at its recorded pacing "
            + "(or --rate); sessions and ClOrdIDs are mapped onto ours")
        Path flow;
        @Option(names = "--baseline", paramLabel = "FILE",
            description = "compare with an earlier summary.json; fail when a probe's percentile regresses")
        Path baseline;
        @Option(names = "--max-ratio", paramLabel = "R", defaultValue = "1.5",
            description = "... by more than this ratio (default ${DEFAULT-VALUE})")
        double maxRatio;
        @Option(names = "--baseline-percentile", paramLabel = "P", defaultValue = "p99", description = "which "
            + "percentile to compare: p50, p90, p99, p999, p9999, worst (default ${DEFAULT-VALUE})")
        String baselinePercentile;
        @Option(names = "--threshold", paramLabel = "X", description = "fail when a percentile exceeds a ceiling: "
            + "probe.percentile=micros, e.g. new_ack.p99=1000 (repeatable; probes, stages and send_lag)")
        List<String> thresholds = new ArrayList<>();
        @Option(names = "--floor-ratio", paramLabel = "R", description = "the default gate: fail when new_ack p99 "
            + "exceeds R times the floor's p99 of the same invocation; 0 turns it off (default "
            + "${DEFAULT-VALUE})", defaultValue = "20")
        double floorRatio;
        @Option(names = "--floor-duration", paramLabel = "S",
            description = "measured seconds of the floor phase (default: --duration)")
        Integer floorDuration;
        @Option(names = "--max-send-lag", paramLabel = "MICROS", defaultValue = "200", description = "the run is "
            + "INVALID when the generator's send-lag p99 in a phase exceeds this and 10%% of that phase's round-trip "
            + "p99 (default ${DEFAULT-VALUE})")
        double maxSendLag;
        @Option(names = "--park-margin", paramLabel = "MICROS", defaultValue = "100", description = "the sender "
            + "parks until this long before each due time, then waits out the rest (default ${DEFAULT-VALUE})")
        int parkMargin;
        @Option(names = "--wait", paramLabel = "yield|spin", defaultValue = "yield", description = "how the sender "
            + "waits out the last --park-margin: yield the core to others, or spin (default ${DEFAULT-VALUE})")
        String wait;
        @Option(names = "--timer-slack", paramLabel = "NANOS", defaultValue = "1000", description = "the sending "
            + "thread's timer slack (Linux; 0 leaves the system's 50 µs) (default ${DEFAULT-VALUE})")
        long timerSlack;
        @Option(names = "--server-config", paramLabel = "FILE",
            description = "the properties the server runs with, copied into the report (scripts/loadgen.sh passes it)")
        Path serverConfig;
        @Option(names = "--server-log", paramLabel = "FILE",
            description = "the server's log, whose \"fixmatch ready\" line goes into the report")
        Path serverLog;
        @Option(names = "--so-sndbuf", paramLabel = "BYTES", defaultValue = "0",
            description = "our socket's send buffer (default: the system's; small values test back-pressure)")
        int sendBuffer;
        @Option(names = "--no-market-data", description = "do not subscribe to market data (by default the "
            + "session subscribes to the flow's symbols and measures the md_update probe)")
        boolean noMarketData;
        @Option(names = "--feed", description = "listen to the server's binary market data feed with its reference "
            + "handler and measure the feed_update probe (request due -> its level's update applied), at the server's "
            + "default addresses unless the --feed-* options say others")
        boolean feed;
        @Option(names = "--feed-channel", paramLabel = "HOST:PORT", description = "the feed's stream address to listen "
            + "on (implies --feed; default 127.0.0.1:40456)")
        String feedChannel;
        @Option(names = "--feed-snapshot-channel", paramLabel = "HOST:PORT", description = "the feed's snapshot "
            + "address to listen on (implies --feed; default 127.0.0.1:40457)")
        String feedSnapshotChannel;
        @Option(names = "--feed-retransmit", paramLabel = "HOST:PORT", description = "the feed's retransmission "
            + "service (implies --feed; default 127.0.0.1:40458)")
        String feedRetransmit;

        @Option(names = "--timeout", paramLabel = "S", defaultValue = "10",
            description = "give up when no response arrives for S seconds, and wait as long for a server that is "
                + "not ready yet (connection and Logon retried; default ${DEFAULT-VALUE})")
        int timeout;

        LoadgenOptions toOptions() {
            int effectiveRate = rate == null ? DEFAULT_RATE : positive("--rate", rate);
            positive("--duration", duration);
            nonNegative("--warmup", warmup);
            positive("--runs", runs);
            positive("--port", port);
            nonNegative("--price-scale", priceScale);
            if (cpu < -1) {
                throw new IllegalArgumentException("--cpu must be >= 0, was " + cpu);
            }
            positive("--timeout", timeout);
            nonNegative("--park-margin", parkMargin);
            nonNegative("--so-sndbuf", sendBuffer);
            int floor = floorDuration == null ? duration : positive("--floor-duration", floorDuration);
            if (maxRatio <= 0 || floorRatio < 0 || maxSendLag <= 0) {
                throw new IllegalArgumentException("--max-ratio and --max-send-lag must be positive, --floor-ratio >= 0");
            }
            Pacer.Wait waitMode = switch (wait.toLowerCase(Locale.ROOT)) {
                case "yield" -> Pacer.Wait.YIELD;
                case "spin" -> Pacer.Wait.SPIN;
                default -> throw new IllegalArgumentException("--wait must be yield or spin, was " + wait);
            };
            requirePercentile("--baseline-percentile", baselinePercentile);
            List<Threshold> parsed = thresholds.stream().map(Threshold::parse).toList();
            if (flow == null && (long) effectiveRate * duration / runs < 1) {
                throw new IllegalArgumentException("--rate x --duration must give each run at least one order");
            }
            return new LoadgenOptions(effectiveRate, rate != null, duration, warmup, runs, host, port, out,
                List.copyOf(symbols), priceScale, sender, target, cpu, seed, baseline, maxRatio, baselinePercentile,
                parsed, timeout, floor, parkMargin, waitMode, timerSlack, maxSendLag, floorRatio, flow, serverConfig,
                serverLog, sendBuffer, !noMarketData, feedAddresses());
        }

        /** The feed's addresses, or null when the feed is not listened to. */
        private FeedAddresses feedAddresses() {
            if (!feed && feedChannel == null && feedSnapshotChannel == null && feedRetransmit == null) {
                return null;
            }
            FeedAddresses defaults = FeedAddresses.DEFAULTS;
            return new FeedAddresses(oneAddress("--feed-channel", feedChannel, defaults.stream()),
                oneAddress("--feed-snapshot-channel", feedSnapshotChannel, defaults.snapshots()),
                oneAddress("--feed-retransmit", feedRetransmit, defaults.retransmit()));
        }

        private static String oneAddress(String flag, String given, String otherwise) {
            String text = given == null ? otherwise : given;
            try {
                if (Channel.parse(text).size() == 1) {
                    return text;
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(flag + ": " + e.getMessage());
            }
            throw new IllegalArgumentException(flag + " wants one host:port, was " + text);
        }

        private static int positive(String flag, int value) {
            if (value <= 0) {
                throw new IllegalArgumentException(flag + " must be positive, was " + value);
            }
            return value;
        }

        private static void nonNegative(String flag, int value) {
            if (value < 0) {
                throw new IllegalArgumentException(flag + " must be >= 0, was " + value);
            }
        }
    }
}
