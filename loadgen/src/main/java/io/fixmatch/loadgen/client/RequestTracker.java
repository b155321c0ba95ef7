package io.fixmatch.loadgen.client;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.loadgen.flow.RequestKind;
import org.HdrHistogram.Recorder;
import net.openhft.chronicle.core.util.NanoSampler;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Requests in flight and what became of them. The sending thread records each request (kind, the time it was due)
 * before sending it; the reading thread matches every response to its request by ClOrdID number, samples the round
 * trip into the request kind's probe and the end-to-end probe, and counts anything missing, unexpected or rejected.
 *
 * <p>Records live in a ring indexed by ClOrdID number; a record is published by a release store of its id, read
 * with an acquire load. Allocation-free except when describing errors.
 */
public final class RequestTracker implements FixClient.Listener {
    private static final int CAPACITY = 1 << 20;
    private static final int MASK = CAPACITY - 1;
    private static final int MAX_ERROR_DESCRIPTIONS = 20;

    private static final byte PENDING = 0;
    private static final byte ANSWERED = 1;
    private static final byte FILLED = 2;

    private final AtomicLongArray ids = new AtomicLongArray(CAPACITY);
    private final byte[] kinds = new byte[CAPACITY];
    private final long[] dueNanos = new long[CAPACITY];
    /** Set by the sender when an aggressive order of ours is about to fill this resting order. */
    private final AtomicIntegerArray targeted = new AtomicIntegerArray(CAPACITY);
    /** Reader-owned. */
    private final byte[] phases = new byte[CAPACITY];

    private final Probes probes;
    private final List<String> errorDescriptions = Collections.synchronizedList(new ArrayList<>());
    private volatile long rejected;
    private volatile long unexpected;
    private volatile long answered;

    public RequestTracker(Probes probes) {
        this.probes = probes;
    }

    /** Sender: a request about to be sent, due at {@code dueNanos}. */
    public void sending(long id, RequestKind kind, long due) {
        int slot = (int) (id & MASK);
        kinds[slot] = (byte) kind.ordinal();
        dueNanos[slot] = due;
        phases[slot] = PENDING;
        targeted.setPlain(slot, 0);
        ids.setRelease(slot, id);
    }

    /** Sender: our resting order {@code id} is about to be filled by our own aggressive order. */
    public void targeting(long id) {
        targeted.setRelease((int) (id & MASK), 1);
    }

    @Override
    public void onMessage(FixMessage message, long receivedNanos) {
        switch (message.msgType()) {
            case MsgTypes.EXECUTION_REPORT -> onExecutionReport(clOrdIdNumber(message),
                message.byteValue(FixTags.EXEC_TYPE), message.byteValue(FixTags.ORD_STATUS), receivedNanos);
            case MsgTypes.ORDER_CANCEL_REJECT -> rejected("OrderCancelReject for L" + clOrdIdNumber(message) + ": "
                + message.stringValue(FixTags.TEXT));
            case MsgTypes.REJECT -> rejected("session Reject of our message "
                + message.stringValue(FixTags.REF_SEQ_NUM) + ": " + message.stringValue(FixTags.TEXT));
            case MsgTypes.BUSINESS_MESSAGE_REJECT -> rejected("BusinessMessageReject: "
                + message.stringValue(FixTags.TEXT));
            default -> unexpected("message of type " + MsgTypes.toString(message.msgType()));
        }
    }

    @Override
    public void onProblem(String description) {
        unexpected(description);
    }

    /** The number in our ClOrdID "L123"; 0 if it is not one of ours. */
    private static long clOrdIdNumber(FixMessage message) {
        int field = message.indexOf(FixTags.CL_ORD_ID);
        if (field < 0 || message.valueLengthAt(field) < 2 || message.buffer()[message.valueStartAt(field)] != 'L') {
            return 0;
        }
        long number = FixMessage.parseLong(message.buffer(), message.valueStartAt(field) + 1,
            message.valueLengthAt(field) - 1);
        return number == FixMessage.NOT_A_NUMBER ? 0 : number;
    }

    /** Reader: an ExecutionReport (35=8) for ClOrdID number {@code id}. */
    public void onExecutionReport(long id, byte execType, byte ordStatus, long nowNanos) {
        int slot = (int) (id & MASK);
        if (id <= 0 || ids.getAcquire(slot) != id) {
            unexpected("ExecutionReport for unknown ClOrdID L" + id + " (ExecType " + (char) execType + ")");
            return;
        }
        RequestKind kind = RequestKind.fromOrdinal(kinds[slot]);
        switch (execType) {
            case '0' -> {
                if (kind == RequestKind.NEW_ORDER) {
                    answer(slot, kind, nowNanos);
                } else if (kind != RequestKind.AGGRESSIVE) {
                    unexpected("New report for a " + kind + " request L" + id);
                }
            }
            case 'F' -> onTrade(id, slot, kind, ordStatus, nowNanos);
            case '4' -> {
                if (kind == RequestKind.CANCEL) {
                    answer(slot, kind, nowNanos);
                } else {
                    unexpected("Canceled report for a " + kind + " request L" + id
                        + (kind == RequestKind.AGGRESSIVE ? ": the IOC did not fill completely" : ""));
                }
            }
            case '5' -> {
                if (kind == RequestKind.REPLACE) {
                    answer(slot, kind, nowNanos);
                } else {
                    unexpected("Replaced report for a " + kind + " request L" + id);
                }
            }
            case '8' -> rejected("order L" + id + " rejected");
            default -> unexpected("ExecType " + (char) execType + " for L" + id);
        }
    }

    private void onTrade(long id, int slot, RequestKind kind, byte ordStatus, long nowNanos) {
        if (kind == RequestKind.AGGRESSIVE) {
            if (phases[slot] == PENDING) {
                answer(slot, kind, nowNanos);
            }
            if (ordStatus == '2') {
                phases[slot] = FILLED;
            }
        } else if (targeted.getAcquire(slot) == 0) {
            unexpected("resting order L" + id + " traded without our aggressive order");
        }
    }

    private void answer(int slot, RequestKind kind, long nowNanos) {
        if (phases[slot] != PENDING) {
            unexpected("second answer to " + kind + " request in slot " + slot);
            return;
        }
        phases[slot] = ANSWERED;
        answered++;
        probes.record(kind, nowNanos - dueNanos[slot]);
    }

    /** Reader: a message that means something went wrong (reject, cancel reject, business reject). */
    public void rejected(String description) {
        rejected++;
        describe("rejected: " + description);
    }

    public void unexpected(String description) {
        unexpected++;
        describe("unexpected: " + description);
    }

    /** Requests sent but never answered, up to {@code lastId}. */
    public long missing(long lastId) {
        return countMissing(lastId, false);
    }

    /** As {@link #missing}, and describes the first few in the error list: for the final count only. */
    public long reportMissing(long lastId) {
        return countMissing(lastId, true);
    }

    private long countMissing(long lastId, boolean describe) {
        long missing = 0;
        for (long id = Math.max(1, lastId - CAPACITY + 1); id <= lastId; id++) {
            int slot = (int) (id & MASK);
            if (ids.get(slot) == id && phases[slot] == PENDING) {
                missing++;
                if (describe && missing <= 3) {
                    describe("missing: no answer to " + RequestKind.fromOrdinal(kinds[slot]) + " request L" + id);
                }
            }
        }
        return missing;
    }

    public long rejectedCount() {
        return rejected;
    }

    public long unexpectedCount() {
        return unexpected;
    }

    public long answeredCount() {
        return answered;
    }

    public List<String> errorDescriptions() {
        synchronized (errorDescriptions) {
            return List.copyOf(errorDescriptions);
        }
    }

    private void describe(String description) {
        if (errorDescriptions.size() < MAX_ERROR_DESCRIPTIONS) {
            errorDescriptions.add(description);
        }
    }

    /** Where round trips are recorded: a JLBH probe per kind plus JLBH's end to end, and an HdrHistogram each. */
    public static final class Probes {
        private final NanoSampler[] jlbhProbes = new NanoSampler[RequestKind.values().length];
        private final Recorder[] recorders = new Recorder[RequestKind.values().length];
        private final Recorder endToEnd = newRecorder();
        private NanoSampler jlbhEndToEnd;

        public Probes() {
            for (int i = 0; i < recorders.length; i++) {
                recorders[i] = newRecorder();
            }
        }

        public void attach(RequestKind kind, NanoSampler probe) {
            jlbhProbes[kind.ordinal()] = probe;
        }

        public void attachEndToEnd(NanoSampler sampler) {
            jlbhEndToEnd = sampler;
        }

        void record(RequestKind kind, long nanos) {
            recorders[kind.ordinal()].recordValue(Math.max(1, nanos));
            endToEnd.recordValue(Math.max(1, nanos));
            if (jlbhProbes[kind.ordinal()] != null) {
                jlbhProbes[kind.ordinal()].sampleNanos(nanos);
            }
            if (jlbhEndToEnd != null) {
                jlbhEndToEnd.sampleNanos(nanos); // last: JLBH ends a run when it has counted every end-to-end sample
            }
        }

        public Recorder recorder(RequestKind kind) {
            return recorders[kind.ordinal()];
        }

        public Recorder endToEnd() {
            return endToEnd;
        }

        public static Recorder newRecorder() {
            return new Recorder(1, 60_000_000_000L, 3); // ns up to 60 s: fixed size, never resizes
        }
    }
}
