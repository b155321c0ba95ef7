package io.fixmatch.benchmarks.loop;

import io.fixmatch.benchmarks.engine.Fixture;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.loop.LoopConfig;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.journal.ChroniclePersistence;
import io.fixmatch.journal.JournalConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Recovery time on a long journal (issue #14), not a JMH benchmark (one run of each is the measurement):
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar [the server's JVM flags] io.fixmatch.benchmarks.loop.RecoveryTime \
 *     [commands (10900000)] [snapshot every (1000000)] [folder (a temporary one, deleted)]
 * </pre>
 * Writes a journal of that many commands through the live loop (new day limit orders that rest, about one in three
 * cancels of a live order, up to 100,000 resting), with a periodic snapshot every N commands, then times two
 * recoveries: from the last periodic snapshot (as after a crash: the clean stop's snapshot is removed), and the whole
 * journal with no snapshot (the snapshots moved aside).
 */
public final class RecoveryTime {
    private static final EngineConfig ENGINE = Fixture.config(200_000, 20_000);
    private static final int RESTING_TARGET = 100_000;

    private RecoveryTime() {
    }

    public static void main(String[] args) throws IOException {
        int commands = args.length > 0 ? Integer.parseInt(args[0]) : 10_900_000;
        long snapshotEvery = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000;
        Path directory = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("fixmatch-recovery-time");
        JournalConfig config = JournalConfig.at(directory).withSnapshotEvery(snapshotEvery);
        try {
            long start = System.nanoTime();
            write(config, commands);
            System.out.printf("wrote %,d commands in %.1f s; journal %,d MB%n", commands, seconds(start),
                size(directory) >> 20);
            List<Path> snapshots = snapshots(directory);
            Files.delete(snapshots.get(0)); // the clean stop's: as after a crash, the last periodic one remains
            time("from the last periodic snapshot " + snapshots.get(1).getFileName(), config, Long.MAX_VALUE);
            for (Path snapshot : snapshots(directory)) {
                Files.move(snapshot, snapshot.resolveSibling(snapshot.getFileName() + ".aside"));
            }
            time("whole journal, no snapshot", config, Long.MAX_VALUE);
        } finally {
            if (args.length <= 2) {
                LoopFixture.deleteRecursively(directory);
            }
        }
    }

    private static void write(JournalConfig config, int count) {
        MatchingRuntime runtime = new MatchingRuntime(ENGINE, LoopConfig.defaults().withIdleStrategy("yield"),
            ChroniclePersistence.open(config, Fixture.SYMBOLS));
        runtime.recover();
        runtime.start();
        SplittableRandom random = new SplittableRandom(14);
        long[] live = new long[ENGINE.maxOrders()];
        int liveCount = 0;
        long next = 0;
        Command command = new Command();
        for (int i = 0; i < count; i++) {
            if (liveCount > 0 && (liveCount >= RESTING_TARGET || random.nextInt(3) == 0)) {
                int victim = random.nextInt(liveCount);
                long id = live[victim];
                live[victim] = live[--liveCount];
                command.cancel(1, "x" + i, "o" + id, Fixture.SYMBOL, id % 2 == 0 ? Side.BUY : Side.SELL);
            } else {
                long id = next++;
                Side side = id % 2 == 0 ? Side.BUY : Side.SELL;
                long price = side == Side.BUY ? Fixture.CENTER - 1 - random.nextInt(500)
                    : Fixture.CENTER + 1 + random.nextInt(500);
                command.newOrder(1, "o" + id, Fixture.SYMBOL, side, OrderType.LIMIT, TimeInForce.DAY, price, 100);
                live[liveCount++] = id;
            }
            LoopFixture.send(runtime, command);
        }
        runtime.close();
        while (runtime.outbound().poll(event -> { }, 10_000) > 0) {
            // drain
        }
    }

    /** Times a recovery, then a snapshot of the recovered books (what a periodic snapshot costs the matching thread). */
    private static void time(String what, JournalConfig config, long latestSnapshot) {
        long start = System.nanoTime();
        ChroniclePersistence journal = ChroniclePersistence.open(config.withSnapshotEvery(0), Fixture.SYMBOLS);
        try (MatchingRuntime runtime = new MatchingRuntime(ENGINE, LoopConfig.defaults(), journal)) {
            long replayed = runtime.recover(null, latestSnapshot);
            System.out.printf("recovery %s: %.3f s, %,d commands replayed, %,d orders resting%n", what,
                seconds(start), replayed, runtime.engine().liveOrderCount());
            long snapshotStart = System.nanoTime();
            journal.checkpoint(runtime.engine());
            System.out.printf("a snapshot of those books: %.3f s%n", seconds(snapshotStart));
        }
    }

    private static List<Path> snapshots(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory.resolve("snapshots"))) {
            return files.filter(f -> f.toString().endsWith(".snap"))
                .sorted(Comparator.comparing((Path f) -> f.getFileName().toString()).reversed()).toList();
        }
    }

    private static long size(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
