package io.fixmatch.fix.gateway;

import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.codec.EventCodec;
import io.fixmatch.engine.loop.ConsumerWakeup;
import io.fixmatch.engine.loop.DropCopyRoutes;
import io.fixmatch.fix.app.EventReportBody;
import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionRegistry;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

/**
 * One gateway's drop copies of the refusals its sessions' order entry makes before the engine sees a request
 * (unknown symbol, price off the tick, server busy): each goes, marked as a copy, to every drop-copy session that
 * covers the refusing session ({@link DropCopyRoutes}; answers to status requests are not copied).
 *
 * <p>A drop-copy session on this gateway gets the copy at once, right after the original, on this thread. One on
 * another gateway thread may only be numbered and stored by that thread, so the copy travels to it through that
 * gateway's <b>inbox</b>: an Agrona {@link ManyToOneRingBuffer} (every other gateway a producer, the owner its one
 * consumer), preallocated, lock-free, with a record of the refusal in {@link EventCodec} form, its refusal number
 * (the ExecID the original carried) and the Symbol as requested. The owner drains it every duty cycle and is woken
 * like the matching thread wakes it ({@link ConsumerWakeup}). Why not through the engine's inbound ring: the "server
 * busy" refusal exists because that ring is full, the refusal needs no journaling (it changes nothing) and the
 * matching thread should not spend its step on it. A full inbox (its gateway stalled for thousands of refusals)
 * never makes this thread wait: the copy is kept here, in order, and offered again every cycle (the only allocation,
 * on that rare path), so no copy is dropped while the process lives. Refusals are not journaled: a copy not yet
 * stored when the process is killed is lost (docs/FIX.md).
 */
public final class RefusalCopies {
    private static final Logger LOG = LoggerFactory.getLogger(RefusalCopies.class);
    /** Bytes of copies an inbox holds at once (a record is at most about 300 bytes). */
    static final int INBOX_CAPACITY = 128 * 1024;
    private static final int REFUSAL_COPY = 1;
    /** Record: i32 recipient owner, i32 symbol length, i64 refusal number, the event, the requested symbol. */
    private static final int SYMBOL_LENGTH_OFFSET = Integer.BYTES;
    private static final int NUMBER_OFFSET = 2 * Integer.BYTES;
    private static final int EVENT_OFFSET = NUMBER_OFFSET + Long.BYTES;
    private static final int MAX_SYMBOL = 64;
    private static final int MAX_RECORD = EVENT_OFFSET + EventCodec.MAX_LENGTH + MAX_SYMBOL;

    private final int gateway;
    private final DropCopyRoutes routes;
    private final RingBuffer inbox;
    private final EventReportBody copy;
    private final ExecutionEvent received = new ExecutionEvent();
    private final byte[] receivedSymbol = new byte[MAX_SYMBOL];
    private final UnsafeBuffer record = new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_RECORD));
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private final UnsafeBuffer waitingView = new UnsafeBuffer(new byte[0]);
    private final MessageHandler receiver = this::receive;
    private RefusalCopies[] gateways = {this};
    private SessionRegistry sessions;
    private volatile ConsumerWakeup wakeup;
    private long nowMs;
    private long sent;
    private long unroutable;

    private record Waiting(int gateway, byte[] bytes) {
    }

    private RefusalCopies(int gateway, DropCopyRoutes routes, SymbolTable symbols) {
        this.gateway = gateway;
        this.routes = routes;
        this.copy = new EventReportBody(symbols);
        this.inbox = new ManyToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(INBOX_CAPACITY + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /** One per gateway (index = gateway), each able to reach the others' inboxes. */
    public static RefusalCopies[] forGateways(int count, DropCopyRoutes routes, SymbolTable symbols) {
        RefusalCopies[] all = new RefusalCopies[count];
        for (int i = 0; i < count; i++) {
            all[i] = new RefusalCopies(i, routes, symbols);
        }
        for (RefusalCopies copies : all) {
            copies.gateways = all;
        }
        return all;
    }

    /** Before the gateways start: where the drop-copy sessions are found by owner id. */
    public void sessions(SessionRegistry registry) {
        sessions = registry;
    }

    /** Before the gateways start: how the owning gateway is woken when it announced a sleep. */
    void consumerWakeup(ConsumerWakeup value) {
        wakeup = value;
    }

    ConsumerWakeup consumerWakeup() {
        return wakeup;
    }

    /**
     * The refusing session's gateway thread, right after the original was sent: copies {@code original} (pointed
     * at the refusal, with its refusal number and requested symbol) to each drop-copy session covering
     * {@code refusing}. Allocation-free unless another gateway's inbox is full.
     */
    public void copy(FixSession refusing, ExecutionEvent refusal, EventReportBody original, long wallClockMs) {
        int[] recipients = routes.recipientsOf(refusal);
        for (int i = 0; i < recipients.length; i++) {
            int target = Gateways.indexOfOwner(recipients[i], gateways.length);
            if (target == gateway) {
                send(recipients[i], refusing, original, wallClockMs);
            } else {
                offer(target, encode(recipients[i], refusal, original));
            }
        }
    }

    private void send(int recipientOwner, FixSession refusing, EventReportBody report, long wallClockMs) {
        FixSession dropCopy = sessions.byOwner(recipientOwner);
        if (dropCopy == null) {
            if (unroutable++ == 0) {
                byte[] servedElsewhere = sessions.clientCompIdOf(recipientOwner);
                if (servedElsewhere != null) {
                    LOG.warn("this gateway's refusals are not copied to drop-copy session {}: another gateway of the"
                        + " cluster serves it (the engine's reports are)", new String(servedElsewhere,
                        StandardCharsets.US_ASCII));
                } else {
                    LOG.error("copy of a refusal for owner {}: no such configured session", recipientOwner);
                }
            }
            return;
        }
        report.copyOf(refusing.clientCompId());
        dropCopy.sendApplication(report.msgType(), report, wallClockMs);
        sent++;
    }

    private int encode(int recipientOwner, ExecutionEvent refusal, EventReportBody original) {
        int symbolLength = Math.min(original.requestedSymbolLength(), MAX_SYMBOL);
        record.putInt(0, recipientOwner);
        record.putInt(SYMBOL_LENGTH_OFFSET, symbolLength);
        record.putLong(NUMBER_OFFSET, original.refusalNumber());
        int eventLength = EventCodec.encode(refusal, record, EVENT_OFFSET);
        record.putBytes(EVENT_OFFSET + eventLength, original.requestedSymbol(), 0, symbolLength);
        return EVENT_OFFSET + eventLength + symbolLength;
    }

    /** Into the target's inbox, behind whatever already waits here (copies keep their order). */
    private void offer(int target, int length) {
        if (waiting.isEmpty() && gateways[target].accept(record, length)) {
            return;
        }
        byte[] kept = new byte[length];
        record.getBytes(0, kept);
        if (waiting.isEmpty()) {
            LOG.warn("gateway-{}: the inbox of gateway-{} is full: copies of refusals wait here, offered again every"
                + " cycle", gateway, target);
        }
        waiting.addLast(new Waiting(target, kept));
    }

    /** Any producing gateway thread: puts the record in this gateway's inbox and wakes it; false if full. */
    private boolean accept(MutableDirectBuffer source, int length) {
        if (!inbox.write(REFUSAL_COPY, source, 0, length)) {
            return false;
        }
        ConsumerWakeup sleeper = wakeup;
        if (sleeper != null) {
            sleeper.wakeIfSleeping();
        }
        return true;
    }

    /** Owning gateway thread, every cycle: offers what waits for a full inbox, then sends what its inbox holds. */
    int drain(int limit, long wallClockMs) {
        int work = 0;
        while (!waiting.isEmpty()) {
            Waiting next = waiting.peekFirst();
            waitingView.wrap(next.bytes());
            if (!gateways[next.gateway()].accept(waitingView, next.bytes().length)) {
                break;
            }
            waiting.removeFirst();
            work++;
        }
        nowMs = wallClockMs;
        return work + inbox.read(receiver, limit);
    }

    private void receive(int type, MutableDirectBuffer buffer, int index, int length) {
        int recipientOwner = buffer.getInt(index);
        int symbolLength = buffer.getInt(index + SYMBOL_LENGTH_OFFSET);
        long number = buffer.getLong(index + NUMBER_OFFSET);
        EventCodec.decode(buffer, index + EVENT_OFFSET, received);
        int eventLength = EventCodec.encodedLength(received);
        buffer.getBytes(index + EVENT_OFFSET + eventLength, receivedSymbol, 0, symbolLength);
        FixSession refusing = sessions.byOwner(received.owner());
        if (refusing == null) {
            if (unroutable++ == 0) {
                LOG.error("copy of a refusal of owner {}: no such configured session", received.owner());
            }
            return;
        }
        copy.of(received).refusal(number).withRequestedSymbol(receivedSymbol, 0, symbolLength);
        send(recipientOwner, refusing, copy, nowMs);
    }

    /** Whether the owning gateway has copies to send or to offer again (checked before it blocks). */
    boolean hasWork() {
        return !waiting.isEmpty() || inbox.size() > 0;
    }

    /** Copies of refusals this gateway wrote into its own drop-copy sessions. */
    long sent() {
        return sent;
    }
}
