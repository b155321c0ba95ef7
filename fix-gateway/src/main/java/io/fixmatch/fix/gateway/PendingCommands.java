package io.fixmatch.fix.gateway;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.fix.session.SessionRequests;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;

/**
 * Commands a gateway owes the engine that no client is waiting on (cancel-on-disconnect), and the requests its sessions
 * owe a cluster that owns them ({@code SessionCodec}: a Logon's claim, a release, a message to number): offered to the
 * inbound ring at once if it has room, otherwise kept, in order, and offered again at every duty cycle until the ring
 * takes them. Never dropped, never reordered (a session's release comes after its cancel-on-disconnect), and never a
 * wait on the gateway thread. Rare (a full ring), so a kept one may allocate.
 */
public final class PendingCommands implements SessionRequests {
    private static final Logger LOG = LoggerFactory.getLogger(PendingCommands.class);

    private final InboundCommandRing inbound;
    /** {@link Command}s and {@link KeptRecord}s, in the order they were submitted. */
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    /** Written by the owning gateway thread; read by others (shutdown waits until it is 0). */
    private volatile int size;
    private long retries;

    public PendingCommands(InboundCommandRing inbound) {
        this.inbound = inbound;
    }

    /** Owner thread: hands the command to the engine now, or as soon as the ring has room. Keeps the reference. */
    public void submit(Command command) {
        waiting.addLast(command);
        if (offerWaiting() == 0) {
            LOG.warn("the inbound ring is full: {} will be offered again at every cycle until it is taken", command);
        }
        size = waiting.size();
    }

    /** Owner thread: a session's request to the cluster, now if nothing waits before it and the ring has room. */
    @Override
    public void submit(int type, DirectBuffer buffer, int offset, int length) {
        if (waiting.isEmpty() && inbound.offerRecord(type, buffer, offset, length)) {
            return;
        }
        byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        waiting.addLast(new KeptRecord(type, bytes));
        offerWaiting();
        size = waiting.size();
    }

    /** A request kept for a ring with no room. */
    private record KeptRecord(int type, byte[] bytes) {
    }

    /** Owner thread, once per duty cycle: offers what waits, in order; returns how many the ring took. */
    public int retry() {
        if (waiting.isEmpty()) {
            return 0;
        }
        retries++;
        int taken = offerWaiting();
        size = waiting.size();
        if (taken > 0 && waiting.isEmpty()) {
            LOG.info("the inbound ring took every waiting command (after {} cycles)", retries);
            retries = 0;
        }
        return taken;
    }

    private int offerWaiting() {
        int taken = 0;
        while (!waiting.isEmpty() && offer(waiting.peekFirst())) {
            waiting.removeFirst();
            taken++;
        }
        return taken;
    }

    private boolean offer(Object kept) {
        if (kept instanceof KeptRecord record) {
            return inbound.offerRecord(record.type(), new UnsafeBuffer(record.bytes()), 0, record.bytes().length);
        }
        return inbound.offer((Command) kept);
    }

    /** Any thread: commands still waiting for room. */
    public int size() {
        return size;
    }
}
