package io.fixmatch.loadgen.client;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.loadgen.flow.ClOrdIds;
import io.fixmatch.loadgen.flow.RequestKind;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Requests in flight and what became of them. The sending thread records each request (kind, the time it was due,
 * the moment its bytes were written) before its bytes leave; the reading thread matches every answer to its request
 * by ClOrdID number (a session Reject by its RefSeqNum), samples the round trip from when the request was DUE into
 * the kind's probe (coordinated omission corrected: a late sender is charged to the result), and counts anything
 * missing, unexpected or rejected. Every request is answered exactly once, which JLBH relies on to end a run.
 *
 * <p>What counts as the answer depends on the {@link Mode}. Records live in a ring indexed by ClOrdID number,
 * published by a release store of the id and read with an acquire load. Allocation-free except when describing
 * errors.
 */
public final class RequestTracker implements FixClient.Listener, FixClient.WriteListener {
    /** What the requests are and so what answers them. */
    public enum Mode {
        /**
         * The seeded flow, whose every answer is known in advance: New for a resting order, Canceled, Replaced, the
         * first Trade of an aggressive order. Anything else is an error (an unexpected report, a reject).
         */
        SEEDED,
        /**
         * A recorded flow, whose answers depend on the market it meets: the first ExecutionReport or
         * OrderCancelReject for the request's ClOrdID answers it, whatever it says. Fills are normal; refusals
         * (rejected orders, cancel rejects) are counted apart as refused, not as errors.
         */
        REPLAY,
        /** The loopback echo: the request itself coming back answers it. */
        ECHO
    }

    private static final int CAPACITY = 1 << 20;
    private static final int MASK = CAPACITY - 1;
    private static final int MAX_ERROR_DESCRIPTIONS = 20;

    private static final byte PENDING = 0;
    private static final byte ANSWERED = 1;
    private static final byte FILLED = 2;

    private final Mode mode;
    private final AtomicLongArray ids = new AtomicLongArray(CAPACITY);
    private final byte[] kinds = new byte[CAPACITY];
    private final long[] dueNanos = new long[CAPACITY];
    private final long[] writeNanos = new long[CAPACITY];
    /** Our MsgSeqNum of each request: a session Reject names the message it rejects by it. */
    private final AtomicLongArray idsBySeqNum = new AtomicLongArray(CAPACITY);
    /** Set by the sender when an aggressive order of ours is about to fill this resting order. */
    private final AtomicIntegerArray targeted = new AtomicIntegerArray(CAPACITY);
    /** Reader-owned. */
    private final byte[] phases = new byte[CAPACITY];

    private final Probes probes;
    private final TraceStages stages;
    /** Told of each answer (reader thread), or null. */
    private AnswerListener answerListener;
    private final List<String> errorDescriptions = Collections.synchronizedList(new ArrayList<>());
    /** Sender-owned: the request being sent. */
    private long sendingId;
    private volatile long rejected;
    private volatile long refused;
    private volatile long unexpected;
    private volatile long answered;
    private volatile long traced;

    /** @param stages where to split round trips by the server's latency trace; null not to */
    public RequestTracker(Mode mode, Probes probes, TraceStages stages) {
        this.mode = mode;
        this.probes = probes;
        this.stages = stages;
    }

    /** Who wants to know, on the reader thread, that a request was answered. */
    public interface AnswerListener {
        /** The request due at {@code dueNanos} was just answered. */
        void answered(long dueNanos);
    }

    /** Before the run: {@code listener} is told of every answer. */
    public void answerListener(AnswerListener listener) {
        answerListener = listener;
    }

    /** Sender: a request about to be sent, due at {@code due}; published when its bytes are written. */
    public void sending(long id, RequestKind kind, long due) {
        int slot = (int) (id & MASK);
        kinds[slot] = (byte) kind.ordinal();
        dueNanos[slot] = due;
        phases[slot] = PENDING;
        targeted.setPlain(slot, 0);
        sendingId = id;
    }

    /** Sender, under the client's send lock: the request's bytes are about to be written as {@code seqNum}. */
    @Override
    public void beforeWrite(long seqNum, long nanos) {
        int slot = (int) (sendingId & MASK);
        writeNanos[slot] = nanos;
        idsBySeqNum.setRelease((int) (seqNum & MASK), sendingId);
        ids.setRelease(slot, sendingId);
    }

    /** Sender: our resting order {@code id} is about to be filled by our own aggressive order. */
    public void targeting(long id) {
        targeted.setRelease((int) (id & MASK), 1);
    }

    @Override
    public void onMessage(FixMessage message, long receivedNanos) {
        switch (message.msgType()) {
            case MsgTypes.EXECUTION_REPORT -> {
                if (mode == Mode.SEEDED) {
                    onSeededReport(message, receivedNanos);
                } else if (mode == Mode.REPLAY) {
                    onReplayAnswer(message, message.byteValue(FixTags.EXEC_TYPE) == '8', receivedNanos);
                } else {
                    unexpected("ExecutionReport from the loopback echo");
                }
            }
            case MsgTypes.ORDER_CANCEL_REJECT -> {
                if (mode == Mode.REPLAY) {
                    onReplayAnswer(message, true, receivedNanos);
                } else {
                    long id = ClOrdIds.read(message, FixTags.CL_ORD_ID);
                    answerIfPending(id, message, receivedNanos);
                    rejected("OrderCancelReject for L" + id + ": " + message.stringValue(FixTags.TEXT));
                }
            }
            case MsgTypes.REJECT, MsgTypes.BUSINESS_MESSAGE_REJECT -> {
                long refSeqNum = message.longValue(FixTags.REF_SEQ_NUM);
                long id = refSeqNum > 0 ? idsBySeqNum.getAcquire((int) (refSeqNum & MASK)) : 0;
                answerIfPending(id, message, receivedNanos);
                rejected((message.msgType() == MsgTypes.REJECT ? "session Reject" : "BusinessMessageReject")
                    + " of our message " + refSeqNum + ": " + message.stringValue(FixTags.TEXT));
            }
            case MsgTypes.NEW_ORDER_SINGLE, MsgTypes.ORDER_CANCEL_REQUEST, MsgTypes.ORDER_CANCEL_REPLACE_REQUEST,
                 MsgTypes.ORDER_STATUS_REQUEST -> {
                long id = ClOrdIds.read(message, FixTags.CL_ORD_ID);
                if (mode != Mode.ECHO || !answerIfPending(id, null, receivedNanos)) {
                    unexpected("request L" + id + " (MsgType " + MsgTypes.toString(message.msgType())
                        + ") came back" + (mode == Mode.ECHO ? " twice or unknown" : " from the acceptor"));
                }
            }
            default -> unexpected("message of type " + MsgTypes.toString(message.msgType()));
        }
    }

    @Override
    public void onProblem(String description) {
        unexpected(description);
    }

    /** The seeded flow: each report must be the one the flow expects. */
    private void onSeededReport(FixMessage message, long nowNanos) {
        long id = ClOrdIds.read(message, FixTags.CL_ORD_ID);
        byte execType = message.byteValue(FixTags.EXEC_TYPE);
        int slot = (int) (id & MASK);
        if (id <= 0 || ids.getAcquire(slot) != id) {
            unexpected("ExecutionReport for unknown ClOrdID L" + id + " (ExecType " + (char) execType + ")");
            return;
        }
        RequestKind kind = RequestKind.fromOrdinal(kinds[slot]);
        switch (execType) {
            case '0' -> {
                if (kind == RequestKind.NEW_ORDER) {
                    answer(slot, kind, message, nowNanos);
                } else if (kind != RequestKind.AGGRESSIVE) {
                    unexpected("New report for a " + kind + " request L" + id);
                }
            }
            case 'F' -> onTrade(id, slot, kind, message, nowNanos);
            case '4' -> {
                if (kind == RequestKind.CANCEL) {
                    answer(slot, kind, message, nowNanos);
                } else {
                    unexpected("Canceled report for a " + kind + " request L" + id
                        + (kind == RequestKind.AGGRESSIVE ? ": the IOC did not fill completely" : ""));
                }
            }
            case '5' -> {
                if (kind == RequestKind.REPLACE) {
                    answer(slot, kind, message, nowNanos);
                } else {
                    unexpected("Replaced report for a " + kind + " request L" + id);
                }
            }
            case '8' -> {
                answerIfPending(id, message, nowNanos);
                rejected("order L" + id + " rejected: " + message.stringValue(FixTags.TEXT));
            }
            default -> unexpected("ExecType " + (char) execType + " for L" + id);
        }
    }

    private void onTrade(long id, int slot, RequestKind kind, FixMessage message, long nowNanos) {
        if (kind == RequestKind.AGGRESSIVE) {
            if (phases[slot] == PENDING) {
                answer(slot, kind, message, nowNanos);
            }
            if (message.byteValue(FixTags.ORD_STATUS) == '2') {
                phases[slot] = FILLED;
            }
        } else if (targeted.getAcquire(slot) == 0) {
            unexpected("resting order L" + id + " traded without our aggressive order");
        }
    }

    /** A recorded flow: the first answer for a ClOrdID, whatever it says; later ones (fills, say) are normal. */
    private void onReplayAnswer(FixMessage message, boolean refusal, long nowNanos) {
        long id = ClOrdIds.read(message, FixTags.CL_ORD_ID);
        int slot = (int) (id & MASK);
        if (id <= 0 || ids.getAcquire(slot) != id) {
            unexpected("answer for unknown ClOrdID L" + id + " (MsgType " + MsgTypes.toString(message.msgType()) + ")");
        } else if (phases[slot] == PENDING) {
            answer(slot, RequestKind.fromOrdinal(kinds[slot]), message, nowNanos);
            if (refusal) {
                refused++;
            }
        }
    }

    /** Answers request {@code id} if it is ours and still pending; returns whether it did. */
    private boolean answerIfPending(long id, FixMessage message, long nowNanos) {
        int slot = (int) (id & MASK);
        if (id <= 0 || ids.getAcquire(slot) != id || phases[slot] != PENDING) {
            return false;
        }
        answer(slot, RequestKind.fromOrdinal(kinds[slot]), message, nowNanos);
        return true;
    }

    private void answer(int slot, RequestKind kind, FixMessage message, long nowNanos) {
        if (phases[slot] != PENDING) {
            unexpected("second answer to " + kind + " request in slot " + slot);
            return;
        }
        phases[slot] = ANSWERED;
        answered++;
        if (stages != null && message != null && stages.record(message, dueNanos[slot], writeNanos[slot], nowNanos)) {
            traced++;
        }
        probes.record(kind, nowNanos - dueNanos[slot]);
        if (answerListener != null) {
            answerListener.answered(dueNanos[slot]);
        }
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

    /** Recorded flows: requests the server refused (rejected orders, cancel rejects): normal in a replay. */
    public long refusedCount() {
        return refused;
    }

    public long unexpectedCount() {
        return unexpected;
    }

    public long answeredCount() {
        return answered;
    }

    /** Answers that carried the server's latency trace. */
    public long tracedCount() {
        return traced;
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
}
