package io.fixmatch.benchmarks.loop;

import io.fixmatch.benchmarks.engine.Fixture;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.journal.ChroniclePersistence;
import io.fixmatch.journal.JournalConfig;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Recovery speed: a journal of {@link #COMMANDS} commands (rest/cancel pairs, written through the live loop) is
 * replayed from its first record into a fresh engine, as a restart without a snapshot does. Reported per command:
 * the throughput is commands replayed per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
// Chronicle's and Agrona's --add-opens/--add-exports come from the host JVM (scripts/bench.sh), which forks inherit.
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class ReplayBenchmark {
    static final int COMMANDS = 1_000_000;

    private Path directory;

    @Setup(Level.Trial)
    public void writeJournal() throws IOException {
        directory = Files.createTempDirectory("fixmatch-replay-bench");
        MatchingRuntime runtime = LoopFixture.runtime(true, "yield", "FAST_DAILY", directory);
        Command[] commands = LoopFixture.restAndCancel(COMMANDS);
        for (Command command : commands) {
            LoopFixture.send(runtime, command);
        }
        runtime.close();
    }

    @TearDown(Level.Trial)
    public void delete() {
        LoopFixture.deleteRecursively(directory);
    }

    @Benchmark
    @OperationsPerInvocation(COMMANDS)
    public long replayWholeJournal() {
        MatchingEngine engine = new MatchingEngine(LoopFixture.ENGINE, event -> { });
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(directory),
            Fixture.SYMBOLS)) {
            long replayed = journal.replay(engine::process);
            if (replayed != COMMANDS) {
                throw new IllegalStateException("replayed " + replayed + " of " + COMMANDS);
            }
            return engine.lastExecId();
        }
    }
}
