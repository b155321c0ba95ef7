package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.matching.MatchingEngine;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The work of the matching thread, one command at a time: take it from the inbound ring, stamp it with the time,
 * append it to the journal, then let the engine act on it (its events go to the outbound ring). Because the journal
 * append comes first, no event ever leaves for a command the journal does not hold.
 *
 * <p>Order status requests change nothing and are not journaled. A command the journal cannot take (a full disk)
 * is refused with a reject and not acted on. Runs as an Agrona {@link Agent} under an
 * {@code AgentRunner}, which supplies the thread and the idle strategy.
 */
final class MatchingLoop implements Agent {
    private static final Logger LOG = LoggerFactory.getLogger(MatchingLoop.class);
    private final InboundCommandRing inbound;
    private final CommandJournal journal;
    private final MatchingEngine engine;
    private final EpochNanoClock clock;
    private final int batchLimit;
    private final Runnable afterBatch;
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[CommandCodec.MAX_LENGTH]);
    private final Command command = new Command();
    private final MessageHandler onCommand = this::onCommand;
    private long commandsProcessed;
    private long journalFailures;
    private boolean journalFailing;

    /** @param afterBatch run after each batch of commands (wakes the events' consumer) */
    MatchingLoop(InboundCommandRing inbound, CommandJournal journal, MatchingEngine engine, EpochNanoClock clock,
                 int batchLimit, Runnable afterBatch) {
        this.afterBatch = afterBatch;
        this.inbound = inbound;
        this.journal = journal;
        this.engine = engine;
        this.clock = clock;
        this.batchLimit = batchLimit;
    }

    @Override
    public int doWork() {
        int commands = inbound.read(onCommand, batchLimit);
        if (commands > 0) {
            afterBatch.run();
        }
        return commands;
    }

    /**
     * Called on the matching thread when the runner stops: finish every command already accepted into the ring
     * (producers have stopped offering by now), let the journal snapshot the books, then close it.
     */
    @Override
    public void onClose() {
        try {
            while (inbound.read(onCommand, batchLimit) > 0) {
                afterBatch.run();
            }
            journal.checkpoint(engine);
        } finally {
            journal.close();
        }
    }

    private void onCommand(int messageType, MutableDirectBuffer buffer, int index, int length) {
        scratch.putBytes(0, buffer, index, length);
        CommandCodec.putTimestamp(scratch, 0, clock.nanoTime());
        if (!CommandCodec.decode(scratch, 0, length, command)) {
            // Producers encode with the same codec, so this is a bug, not bad input: fail loudly.
            throw new IllegalStateException("undecodable command in the inbound ring, length " + length);
        }
        if (command.type() != CommandType.ORDER_STATUS && !journaled(length)) {
            engine.refuse(command, RejectReason.JOURNAL_UNAVAILABLE);
            return;
        }
        engine.process(command);
        commandsProcessed++;
    }

    /** Appends the command in {@code scratch}; on failure (disk full, say) the command must not be acted on. */
    private boolean journaled(int length) {
        try {
            journal.append(scratch, 0, length);
            if (journalFailing) {
                journalFailing = false;
                LOG.warn("journal appends work again after {} refused commands", journalFailures);
            }
            return true;
        } catch (RuntimeException e) {
            journalFailures++;
            if (!journalFailing) {
                journalFailing = true;
                LOG.error("journal append failed: refusing commands until it works again", e);
            }
            return false;
        }
    }

    long commandsProcessed() {
        return commandsProcessed;
    }

    @Override
    public String roleName() {
        return "matching";
    }
}
