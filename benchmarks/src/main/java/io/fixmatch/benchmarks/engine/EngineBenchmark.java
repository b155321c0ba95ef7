package io.fixmatch.benchmarks.engine;

import io.fixmatch.engine.matching.MatchingEngine;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.util.concurrent.TimeUnit;

/**
 * What every engine benchmark shares: the JMH settings (throughput; five warm-ups and five measurements of a second;
 * one fork with the {@link Fixture} JVM flags; one state per thread, which JMH takes from this class), the engine and
 * its counting sink, the guard that checks the book is left as it was found, and the check at the end of each trial
 * that the ops did what they claim.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {Fixture.ANALYTICS_OFF, Fixture.HEAP_MIN, Fixture.HEAP_MAX, Fixture.PRE_TOUCH})
@State(Scope.Thread)
public abstract class EngineBenchmark {
    CountingSink sink;
    MatchingEngine engine;
    final BookGuard guard = new BookGuard();

    /**
     * A new engine whose book holds {@code bookSize} resting orders, its best levels {@code bestOffset} ticks from the
     * center ({@link BookBuilder}); the sink counts from here.
     */
    final void startEngine(int bookSize, long bestOffset) {
        sink = new CountingSink();
        engine = Fixture.engine(sink);
        BookBuilder.build(engine, sink, bookSize, bestOffset);
    }

    @TearDown(Level.Trial)
    public void verify(BenchmarkParams params) {
        verify(params.getBenchmark());
    }

    /** Throws unless the trial's events are what its ops claim and the book is as it was. */
    abstract void verify(String benchmark);

    long events() {
        return sink.events();
    }
}
