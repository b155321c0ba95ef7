package io.fixmatch.benchmarks.loop;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.loop.MatchingRuntime;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
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
 * Commands per second through the whole matching loop: the benchmark thread offers a batch of commands to the
 * inbound ring and takes their events off the outbound ring; the matching thread stamps, journals (or not) and
 * matches. One op = one command, from offer to its event consumed. Journal on = a real Chronicle Queue in a
 * temporary folder. {@code idle=inline}: no matching thread, the benchmark thread runs the matching step itself (the
 * one-thread layout): the CPU cost of a command alone, no hand-off. {@code marketData=on}: the matching step also
 * stages the command's level change and copies it into the ring (the consumer here skips it, as a gateway with no
 * subscriber applies it to its level books): the matching step's whole cost of market data, which does not depend on
 * the number of subscribers.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
// Chronicle's and Agrona's --add-opens/--add-exports come from the host JVM (scripts/bench.sh), which forks inherit.
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class LoopThroughputBenchmark {
    private static final int BATCH = 1_000;

    @Param({"off", "on"})
    public String journal;

    @Param({"backoff", "busy-spin", LoopFixture.INLINE})
    public String idle;

    /** on: the matching step also publishes each command's market data (a level change) into the ring. */
    @Param({"off", "on"})
    public String marketData;

    private Path directory;
    private MatchingRuntime runtime;
    private Command[] commands;
    private long eventsSeen;
    private final EventSink counter = event -> eventsSeen++;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        directory = Files.createTempDirectory("fixmatch-loop-bench");
        runtime = LoopFixture.runtime(journal.equals("on"), idle, "FAST_DAILY", directory,
            marketData.equals("on"));
        commands = LoopFixture.restAndCancel(BATCH);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        runtime.close();
        LoopFixture.deleteRecursively(directory);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long batch() {
        long expected = eventsSeen + BATCH;
        boolean inline = idle.equals(LoopFixture.INLINE);
        for (Command command : commands) {
            while (!runtime.inbound().offer(command)) {
                if (inline) {
                    runtime.doWork();
                }
                runtime.outbound().poll(counter, BATCH);
            }
        }
        while (eventsSeen < expected) {
            if (inline) {
                runtime.doWork();
            }
            if (runtime.outbound().poll(counter, BATCH) == 0) {
                Thread.onSpinWait();
            }
        }
        return eventsSeen;
    }
}
