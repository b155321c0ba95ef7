package io.fixmatch.loadgen;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command-line options of the load generator. The flags named in the release checklist ({@code --rate},
 * {@code --duration}, {@code --warmup}, {@code --host}, {@code --port}, {@code --out}, {@code --help}) are a
 * stable interface.
 */
public record LoadgenOptions(int rate, int durationSeconds, int warmupSeconds, int runs, String host, int port,
                             Path out, List<String> symbols, int priceScale, String senderCompId,
                             String targetCompId, int cpu, long seed, Path baseline, double maxRatio,
                             String baselinePercentile, List<Threshold> thresholds, int timeoutSeconds) {

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
            requirePercentile(percentile);
            return new Threshold(text.substring(0, dot), percentile, Double.parseDouble(text.substring(equals + 1)));
        }
    }

    public static final List<String> PERCENTILES = List.of("p50", "p90", "p99", "p999", "p9999", "worst");

    public static String usage() {
        return """
            usage: loadgen [options]
              Replays a seeded volatile-market order flow over FIX 4.4 at a fixed rate and measures the client-observed
              round trip of every request with JLBH (corrected for coordinated omission).
              --rate N            orders per second (default 45000)
              --duration S        measured seconds, split over the runs (default 60)
              --warmup S          warm-up seconds before measuring (default 10)
              --runs N            measured runs (default 3)
              --host H            FIX acceptor host (default 127.0.0.1)
              --port P            FIX acceptor port (default 9878)
              --out DIR           report folder: summary.json, HdrHistogram logs, percentile plot (default out/loadgen)
              --symbols A,B,..    symbols to trade (default AAPL,MSFT,GOOG)
              --price-scale N     decimals of the symbols' prices (default 2: tick 0.01)
              --sender ID         our SenderCompID (default LOADGEN)
              --target ID         the acceptor's CompID (default FIXMATCH)
              --cpu N             pin the sending thread to CPU N (default: not pinned)
              --seed N            order flow seed (default 42)
              --baseline FILE     compare with an earlier summary.json; fail when a probe's percentile regresses
              --max-ratio R       ... by more than this ratio (default 1.5)
              --baseline-percentile P   which percentile to compare: p50, p90, p99, p999, p9999, worst (default p99)
              --threshold X       fail when a percentile exceeds a ceiling: probe.percentile=micros, e.g.
                                  new_ack.p99=1000 (repeatable)
              --timeout S         give up when no response arrives for S seconds (default 10)
              --help              this text
            Exit status: 0 ok; 1 errors in the run (missing, unexpected or rejected responses); 3 a threshold or the
            baseline was breached; 2 bad options.""";
    }

    public static LoadgenOptions parse(String[] args) {
        int rate = 45_000;
        int duration = 60;
        int warmup = 10;
        int runs = 3;
        String host = "127.0.0.1";
        int port = 9878;
        Path out = Path.of("out", "loadgen");
        List<String> symbols = List.of("AAPL", "MSFT", "GOOG");
        int priceScale = 2;
        String sender = "LOADGEN";
        String target = "FIXMATCH";
        int cpu = -1;
        long seed = 42;
        Path baseline = null;
        double maxRatio = 1.5;
        String baselinePercentile = "p99";
        List<Threshold> thresholds = new ArrayList<>();
        int timeout = 10;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                return null;
            }
            if (i + 1 == args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--rate" -> rate = positive(flag, value);
                case "--duration" -> duration = positive(flag, value);
                case "--warmup" -> warmup = nonNegative(flag, value);
                case "--runs" -> runs = positive(flag, value);
                case "--host" -> host = value;
                case "--port" -> port = positive(flag, value);
                case "--out" -> out = Path.of(value);
                case "--symbols" -> symbols = List.of(value.split(","));
                case "--price-scale" -> priceScale = nonNegative(flag, value);
                case "--sender" -> sender = value;
                case "--target" -> target = value;
                case "--cpu" -> cpu = nonNegative(flag, value);
                case "--seed" -> seed = Long.parseLong(value);
                case "--baseline" -> baseline = Path.of(value);
                case "--max-ratio" -> maxRatio = Double.parseDouble(value);
                case "--baseline-percentile" -> baselinePercentile = requirePercentile(value);
                case "--threshold" -> thresholds.add(Threshold.parse(value));
                case "--timeout" -> timeout = positive(flag, value);
                default -> throw new IllegalArgumentException("unknown option " + flag);
            }
        }
        if ((long) rate * duration / runs < 1) {
            throw new IllegalArgumentException("--rate x --duration must give each run at least one order");
        }
        return new LoadgenOptions(rate, duration, warmup, runs, host, port, out, symbols, priceScale, sender, target,
            cpu, seed, baseline, maxRatio, baselinePercentile, List.copyOf(thresholds), timeout);
    }

    /** Orders per measured run. */
    public long iterationsPerRun() {
        return (long) rate * durationSeconds / runs;
    }

    public int warmupIterations() {
        return Math.max(1, rate * warmupSeconds);
    }

    private static String requirePercentile(String value) {
        if (!PERCENTILES.contains(value)) {
            throw new IllegalArgumentException("percentile must be one of " + PERCENTILES + ", was " + value);
        }
        return value;
    }

    private static int positive(String flag, String value) {
        int parsed = Integer.parseInt(value);
        if (parsed <= 0) {
            throw new IllegalArgumentException(flag + " must be positive, was " + value);
        }
        return parsed;
    }

    private static int nonNegative(String flag, String value) {
        int parsed = Integer.parseInt(value);
        if (parsed < 0) {
            throw new IllegalArgumentException(flag + " must be >= 0, was " + value);
        }
        return parsed;
    }
}
