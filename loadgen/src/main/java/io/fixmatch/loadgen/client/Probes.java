package io.fixmatch.loadgen.client;

import io.fixmatch.loadgen.flow.RequestKind;
import net.openhft.chronicle.core.util.NanoSampler;
import net.openhft.chronicle.jlbh.JLBH;
import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where one phase's round trips are recorded: an HdrHistogram recorder per probe (the report's numbers) and the
 * JLBH probe of the same name (JLBH's own tables), plus JLBH's end-to-end sampler, which JLBH counts to know that
 * a run's answers are all in. The server phase has a probe per request kind and an end-to-end one; the floor phase
 * one probe for every request.
 */
public final class Probes {
    /** Round trips up to a minute, in ns, 3 significant digits: a fixed size, never resized while recording. */
    public static final long MAX_NANOS = 60_000_000_000L;

    private final Probe[] byKind = new Probe[RequestKind.values().length];
    private final Map<String, Probe> byName = new LinkedHashMap<>();
    private final boolean ownJlbhProbes;
    private Probe endToEnd;
    private NanoSampler jlbhEndToEnd;

    /** One probe per kind of request the source sends, and {@code endToEnd} over all of them. */
    public static Probes perKind(Set<RequestKind> kinds, String endToEnd) {
        Probes probes = new Probes(true);
        for (RequestKind kind : kinds) {
            probes.byKind[kind.ordinal()] = probes.probe(kind.probe());
        }
        probes.endToEnd = probes.probe(endToEnd);
        return probes;
    }

    /** Every request in one probe: JLBH's end-to-end is the same distribution, so no JLBH probe of its own. */
    public static Probes single(String name) {
        Probes probes = new Probes(false);
        Probe probe = probes.probe(name);
        Arrays.fill(probes.byKind, probe);
        return probes;
    }

    private Probes(boolean ownJlbhProbes) {
        this.ownJlbhProbes = ownJlbhProbes;
    }

    private Probe probe(String name) {
        return byName.computeIfAbsent(name, Probe::new);
    }

    /** Called in the JLBH task's init: JLBH's end-to-end sampler and, per probe, a JLBH probe. */
    public void attach(JLBH jlbh) {
        jlbhEndToEnd = jlbh;
        if (ownJlbhProbes) {
            for (Probe probe : byName.values()) {
                probe.jlbh = jlbh.addProbe(probe.name);
            }
        }
    }

    /** Reader thread: one round trip of a request of this kind. */
    void record(RequestKind kind, long nanos) {
        long value = clamp(nanos);
        Probe probe = byKind[kind.ordinal()];
        probe.record(value);
        if (endToEnd != null) {
            endToEnd.record(value);
        }
        if (jlbhEndToEnd != null) {
            jlbhEndToEnd.sampleNanos(value); // last: JLBH ends a run when it has counted every end-to-end sample
        }
    }

    /**
     * A probe of its own that no request kind records into and that JLBH's end-to-end does not count (market data:
     * {@link MarketDataProbe}). Before {@link #attach}.
     */
    public Probes withProbe(String name) {
        probe(name);
        return this;
    }

    /** Reader thread: a sample of a probe added with {@link #withProbe}, and nothing else. */
    void recordOnly(String name, long nanos) {
        byName.get(name).record(clamp(nanos));
    }

    /** The names of the probes, in order. */
    public List<String> names() {
        return new ArrayList<>(byName.keySet());
    }

    public Recorder recorder(String name) {
        return byName.get(name).recorder;
    }

    /** Discards what was recorded so far (the warm-up). */
    public void reset() {
        byName.values().forEach(p -> p.recorder.reset());
    }

    public static Recorder newRecorder() {
        return new Recorder(1, MAX_NANOS, 3);
    }

    static long clamp(long nanos) {
        return Math.min(MAX_NANOS, Math.max(1, nanos));
    }

    private static final class Probe {
        final String name;
        final Recorder recorder = newRecorder();
        volatile NanoSampler jlbh;

        Probe(String name) {
            this.name = name;
        }

        void record(long value) {
            recorder.recordValue(value);
            NanoSampler sampler = jlbh;
            if (sampler != null) {
                sampler.sampleNanos(value);
            }
        }
    }
}
