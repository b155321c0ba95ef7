package io.fixmatch.loadgen.client;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;
import org.HdrHistogram.Recorder;

import java.util.List;

/**
 * Where a round trip's time goes, from the server's latency trace: an ExecutionReport of a session with
 * {@code latencyTrace=true} carries the server's {@code System.nanoTime()} at each stage (tags 7101-7107, docs/FIX.md),
 * the same clock as ours on the same host. With our own due, write and receive times they split the round trip into
 * stages whose sum is the round trip from when the request was due:
 * <pre>
 * client_send     due -> our write call (send lag + encoding)
 * wire_in         our write -> server socket read (7101)
 * decode          7101 -> offered to the inbound ring (7102)
 * inbound_queue   7102 -> matching thread took it (7103)
 * journal         7103 -> journal append done (7104)
 * match           7104 -> engine done (7105)
 * outbound_queue  7105 -> gateway took the report's event (7106)
 * encode_write    7106 -> report handed to the socket (7107)
 * wire_out        7107 -> our reader had it
 * </pre>
 * Durations inside one round trip are not subject to coordinated omission: they are recorded as measured.
 */
public final class TraceStages {
    public static final List<String> NAMES = List.of("client_send", "wire_in", "decode", "inbound_queue", "journal",
        "match", "outbound_queue", "encode_write", "wire_out");
    private static final int[] TAGS = {FixTags.TRACE_SOCKET_READ, FixTags.TRACE_RING_OFFER,
        FixTags.TRACE_MATCH_START, FixTags.TRACE_JOURNAL_DONE, FixTags.TRACE_MATCH_DONE, FixTags.TRACE_RING_TAKEN,
        FixTags.TRACE_WRITE};

    private final Recorder[] recorders = new Recorder[NAMES.size()];
    /** Reader-owned scratch: the stage boundaries of the report at hand. */
    private final long[] marks = new long[TAGS.length + 3];

    public TraceStages() {
        for (int i = 0; i < recorders.length; i++) {
            recorders[i] = Probes.newRecorder();
        }
    }

    /** Reader thread: records the stages of an answer if it carries every trace tag; returns whether it did. */
    boolean record(FixMessage answer, long dueNanos, long writeNanos, long receivedNanos) {
        marks[0] = dueNanos;
        marks[1] = writeNanos;
        for (int i = 0; i < TAGS.length; i++) {
            long value = answer.longValue(TAGS[i]);
            if (value == FixMessage.NOT_A_NUMBER) {
                return false;
            }
            marks[i + 2] = value;
        }
        marks[marks.length - 1] = receivedNanos;
        for (int stage = 0; stage < recorders.length; stage++) {
            recorders[stage].recordValue(Probes.clamp(marks[stage + 1] - marks[stage]));
        }
        return true;
    }

    public Recorder recorder(int stage) {
        return recorders[stage];
    }

    public void reset() {
        for (Recorder recorder : recorders) {
            recorder.reset();
        }
    }
}
