package io.fixmatch.fix.gateway;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.loop.InboundCommandRing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;

/**
 * Commands a gateway owes the engine that no client is waiting on (cancel-on-disconnect): offered to the inbound
 * ring at once if it has room, otherwise kept, in order, and offered again at every duty cycle until the ring takes
 * them. Never dropped, and never a wait on the gateway thread. Rare (a disconnect), so a kept command may allocate.
 */
public final class PendingCommands {
    private static final Logger LOG = LoggerFactory.getLogger(PendingCommands.class);

    private final InboundCommandRing inbound;
    private final ArrayDeque<Command> waiting = new ArrayDeque<>();
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
        while (!waiting.isEmpty() && inbound.offer(waiting.peekFirst())) {
            waiting.removeFirst();
            taken++;
        }
        return taken;
    }

    /** Any thread: commands still waiting for room. */
    public int size() {
        return size;
    }
}
