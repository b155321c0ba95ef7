package io.fixmatch.benchmarks.loop;

import io.fixmatch.benchmarks.engine.Fixture;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.loop.EnginePersistence;
import io.fixmatch.engine.loop.LoopConfig;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.journal.ChroniclePersistence;
import io.fixmatch.journal.JournalConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What the loop benchmarks share: the benchmark engine ({@link Fixture}), a runtime with or without a real Chronicle journal in a temporary
 * folder, and a command pattern that keeps the book bounded: order i rests (a bid a few ticks under the
 * center), the next command cancels it. Every command gives exactly one event (ACCEPTED, then CANCELED) and, with
 * market data on, one market data record (the level the order joined or left).
 */
final class LoopFixture {
    static final EngineConfig ENGINE = Fixture.config(100_000, 10_000);

    private LoopFixture() {
    }

    /** The layout where the caller's thread runs the matching step itself ({@link MatchingRuntime#doWork()}). */
    static final String INLINE = "inline";

    /** @param idleStrategy the matching thread's, or {@link #INLINE} for no matching thread */
    static MatchingRuntime runtime(boolean journaled, String idleStrategy, String rollCycle, Path directory) {
        return runtime(journaled, idleStrategy, rollCycle, directory, false);
    }

    /** As above; {@code marketData}: the matching step publishes every command's market data into the ring too. */
    static MatchingRuntime runtime(boolean journaled, String idleStrategy, String rollCycle, Path directory,
                                   boolean marketData) {
        EnginePersistence journal = journaled
            ? ChroniclePersistence.open(new JournalConfig(directory, rollCycle, JournalConfig.KEEP_ALL), Fixture.SYMBOLS)
            : EnginePersistence.NONE;
        boolean inline = idleStrategy.equals(INLINE);
        MatchingRuntime runtime = new MatchingRuntime(ENGINE,
            LoopConfig.defaults().withIdleStrategy(inline ? "backoff" : idleStrategy), journal);
        runtime.publishMarketData(marketData);
        runtime.recover();
        if (inline) {
            runtime.startInline();
        } else {
            runtime.start();
        }
        return runtime;
    }

    /** Commands 2k (rest order k) and 2k+1 (cancel it), for k < count / 2, prebuilt so sending allocates nothing. */
    static Command[] restAndCancel(int count) {
        Command[] commands = new Command[count];
        for (int k = 0; k < count / 2; k++) {
            long price = Fixture.CENTER - 1 - k % 16;
            commands[2 * k] = new Command().newOrder(1, "o" + k, Fixture.SYMBOL, Side.BUY, OrderType.LIMIT,
                TimeInForce.DAY, price, 100);
            commands[2 * k + 1] = new Command().cancel(1, "x" + k, "o" + k, Fixture.SYMBOL, Side.BUY);
        }
        return commands;
    }

    /** Offers the command to the runtime, draining its events while the inbound ring is full, then some more. */
    static void send(MatchingRuntime runtime, Command command) {
        while (!runtime.inbound().offer(command)) {
            runtime.outbound().poll(event -> { }, 10_000);
        }
        runtime.outbound().poll(event -> { }, 10_000);
    }

    static void deleteRecursively(Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
