package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.engine.metrics.EngineCounters;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.MessageHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The matching step, one command at a time: take it from the inbound ring, stamp it with the time where it lies in
 * the ring, append it to the journal from there, then let the engine act on it (its events go to the outbound
 * rings). Because the journal append comes first, no event ever leaves for a command the journal does not hold.
 *
 * <p>Order status requests and book queries change nothing and are not journaled. A command the journal cannot
 * take (a full disk) is refused with a reject and not acted on. Runs as an Agrona {@link Agent}: on its own thread
 * under an {@code AgentRunner} (the two-thread layout), or called by the gateway's duty cycle (the one-thread
 * layout).
 */
final class MatchingLoop implements Agent {
    private static final Logger LOG = LoggerFactory.getLogger(MatchingLoop.class);
    private final InboundCommandRing inbound;
    private final EnginePersistence journal;
    private final MatchingEngine engine;
    private final OutboundRouting outbound;
    private final EpochNanoClock clock;
    private final int batchLimit;
    private final Command command = new Command();
    private final CommandTrace trace = new CommandTrace();
    private final MessageHandler onRecord = this::onRecord;
    private final EngineCounters counters;
    private long journalFailures;
    private boolean journalFailing;
    /** The position of the command just appended; 0 when it was not (a status request, a failed append). */
    private long journalPosition;
    /** The journal position the engine's state covered when the loop closed (0 until then). */
    private volatile long closedAt;

    MatchingLoop(InboundCommandRing inbound, EnginePersistence journal, MatchingEngine engine,
                 OutboundRouting outbound, EpochNanoClock clock, int batchLimit,
                 EngineCounters counters) {
        this.inbound = inbound;
        this.counters = counters;
        this.journal = journal;
        this.engine = engine;
        this.outbound = outbound;
        this.clock = clock;
        this.batchLimit = batchLimit;
    }

    @Override
    public int doWork() {
        int commands = inbound.read(onRecord, batchLimit);
        if (commands > 0) {
            outbound.batchDone();
        }
        return commands;
    }

    /**
     * Called on the matching thread when it stops: finish every command already accepted into the ring
     * (producers have stopped offering by now), let the journal snapshot the books, then close it.
     */
    @Override
    public void onClose() {
        try {
            while (doWork() > 0) {
                // drain
            }
            closedAt = journal.checkpoint(engine);
        } finally {
            journal.close();
        }
    }

    private void onRecord(int type, MutableDirectBuffer buffer, int index, int length) {
        CommandTrace commandTrace = null;
        int offset = index;
        int commandLength = length;
        if (type == InboundCommandRing.TRACED_COMMAND) {
            commandTrace = trace.inbound(buffer.getLong(index), buffer.getLong(index + Long.BYTES));
            commandTrace.matchStart(System.nanoTime());
            offset += CommandTrace.INBOUND_LENGTH;
            commandLength -= CommandTrace.INBOUND_LENGTH;
        }
        CommandCodec.putTimestamp(buffer, offset, clock.nanoTime());
        if (!CommandCodec.decode(buffer, offset, commandLength, command)) {
            // Producers encode with the same codec, so this is a bug, not bad input: fail loudly.
            throw new IllegalStateException("undecodable command in the inbound ring, length " + commandLength);
        }
        outbound.startCommand(commandTrace);
        journalPosition = 0;
        boolean journaled = !command.type().changesState() || journaled(buffer, offset, commandLength);
        command.journalPosition(journalPosition);
        if (commandTrace != null) {
            commandTrace.journalDone(System.nanoTime());
        }
        if (journaled) {
            engine.process(command);
            counters.commandProcessed();
        } else {
            counters.journalRefusal();
            engine.refuse(command, RejectReason.JOURNAL_UNAVAILABLE);
        }
        outbound.commandDone(); // (the engine ends the command's market data itself: MarketDataSink#commandDone)
        if (journalPosition != 0 && journal.snapshotDue()) {
            snapshot();
        }
    }

    /**
     * A periodic snapshot, in the command stream: the books as of the command just journaled, written on this thread
     * between two commands (matching waits for it: the cost grows with the resting orders, not the journal), then a
     * mark in every outbound ring after the events of the commands it covers, so the gateways can record that their
     * stores hold them all and recovery may start from it.
     */
    private void snapshot() {
        long coveredThrough = journal.checkpoint(engine);
        if (coveredThrough > 0) {
            outbound.storedThrough(coveredThrough);
        }
    }

    /** Appends the command where it lies in the ring; on failure (disk full, say) it must not be acted on. */
    private boolean journaled(MutableDirectBuffer buffer, int offset, int length) {
        journalPosition = 0;
        try {
            journalPosition = journal.append(buffer, offset, length);
            counters.commandJournaled();
            if (journalFailing) {
                journalFailing = false;
                LOG.warn("journal appends work again after {} refused commands", journalFailures);
            }
            return true;
        } catch (RuntimeException | InternalError e) { // InternalError: a fault writing a memory-mapped file
            journalFailures++;
            if (!journalFailing) {
                journalFailing = true;
                LOG.error("journal append failed: refusing commands until it works again", e);
            }
            return false;
        }
    }

    long closedAt() {
        return closedAt;
    }

    @Override
    public String roleName() {
        return "matching";
    }
}
