package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.MatchingEngine;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Trace stamps travel beside the command and its events, never in the journal: a traced command's events carry
 * socket read <= ring offer <= match start <= journal done <= match done, to whichever consumer's ring they go; an
 * untraced command's carry none; the journal records the same bytes either way. Run in the one-thread layout
 * (the matching step called inline), with events sharded over two rings by owner.
 */
class TracedCommandsTest {
    private static final EngineConfig ENGINE = new EngineConfig(List.of(SymbolSpec.of("X", 2, 1, 1)), 1_000, 100);

    @Test
    void tracedCommandsCarryOrderedStampsToEveryRingAndJournalAsUntraced() {
        RecordingJournal journal = new RecordingJournal();
        MatchingRuntime runtime = new MatchingRuntime(ENGINE, LoopConfig.defaults(), journal, 2, owner -> owner - 1);
        runtime.recover();
        runtime.startInline();

        runtime.inbound().offer(order(1, "rest", Side.SELL));               // owner 1: ring 0, untraced
        long read = System.nanoTime();
        runtime.inbound().offerTraced(order(2, "take", Side.BUY), read);    // owner 2: ring 1, traced
        while (runtime.doWork() > 0) {
            // the matching step, inline
        }

        List<String> ring0 = new ArrayList<>();
        List<CommandTrace> traces0 = new ArrayList<>();
        runtime.outbound(0).poll((event, trace) -> {
            ring0.add(event.type() + " " + event.clientOrderId());
            traces0.add(trace == null ? null : copy(trace));
        }, 100);
        List<String> ring1 = new ArrayList<>();
        List<CommandTrace> traces1 = new ArrayList<>();
        runtime.outbound(1).poll((event, trace) -> {
            ring1.add(event.type() + " " + event.clientOrderId());
            traces1.add(trace == null ? null : copy(trace));
        }, 100);

        assertEquals(List.of("ACCEPTED rest", "FILL rest"), ring0);
        assertEquals(List.of("ACCEPTED take", "FILL take"), ring1);
        assertNull(traces0.get(0), "the untraced command's event");
        CommandTrace fillOfResting = traces0.get(1);
        assertNotNull(fillOfResting, "the resting side's fill, caused by the traced command, carries its stamps");
        for (CommandTrace trace : List.of(fillOfResting, traces1.get(0), traces1.get(1))) {
            assertEquals(read, trace.socketReadNanos());
            assertTrue(trace.socketReadNanos() <= trace.ringOfferNanos(), trace.toString());
            assertTrue(trace.ringOfferNanos() <= trace.matchStartNanos(), trace.toString());
            assertTrue(trace.matchStartNanos() <= trace.journalDoneNanos(), trace.toString());
            assertTrue(trace.journalDoneNanos() <= trace.matchDoneNanos(), trace.toString());
            assertTrue(trace.matchDoneNanos() <= System.nanoTime(), trace.toString());
        }

        assertEquals(2, journal.records.size());
        Command untraced = order(2, "take", Side.BUY);
        byte[] expected = new byte[CommandCodec.encodedLength(untraced)];
        UnsafeBuffer buffer = new UnsafeBuffer(expected);
        CommandCodec.encode(untraced, buffer, 0);
        byte[] journaled = journal.records.get(1);
        Command stamped = new Command();
        assertTrue(CommandCodec.decode(new UnsafeBuffer(journaled), 0, journaled.length, stamped));
        CommandCodec.putTimestamp(buffer, 0, stamped.timestampNanos());
        assertArrayEquals(expected, journaled, "the journal holds the command alone, stamped, no trace");
        runtime.close();
    }

    @Test
    void eventsOfATracedCommandAreVisibleOnlyWhenTheCommandIsDone() {
        OutboundEventRing ring = new OutboundEventRing(1 << 12, org.agrona.concurrent.BusySpinIdleStrategy.INSTANCE);
        io.fixmatch.engine.api.ExecutionEvent event = new io.fixmatch.engine.api.ExecutionEvent()
            .begin(EventType.ACCEPTED, 1, 1);
        CommandTrace trace = new CommandTrace().inbound(1, 2);
        trace.matchStart(3);
        trace.journalDone(4);
        ring.publishTraced(event, trace);
        int[] seen = {0};
        assertEquals(0, ring.poll((e, t) -> seen[0]++, 10), "claimed, not committed: invisible");
        ring.commitTraced(5);
        long[] matchDone = {0};
        assertEquals(1, ring.poll((e, t) -> matchDone[0] = t.matchDoneNanos(), 10));
        assertEquals(5, matchDone[0]);
    }

    private static CommandTrace copy(CommandTrace trace) {
        return new CommandTrace().set(trace.socketReadNanos(), trace.ringOfferNanos(), trace.matchStartNanos(),
            trace.journalDoneNanos(), trace.matchDoneNanos());
    }

    private static Command order(int owner, String id, Side side) {
        return new Command().newOrder(owner, id, 0, side, OrderType.LIMIT, TimeInForce.DAY, 1_000, 5);
    }

    /** Keeps a copy of every appended record. */
    private static final class RecordingJournal implements EnginePersistence {
        final List<byte[]> records = new ArrayList<>();

        @Override
        public long recoverInto(MatchingEngine engine, long latestSnapshot) {
            return 0;
        }

        @Override
        public long replay(Consumer<Command> consumer) {
            return 0;
        }

        @Override
        public long append(DirectBuffer encodedCommand, int offset, int length) {
            byte[] copy = new byte[length];
            encodedCommand.getBytes(offset, copy);
            records.add(copy);
            return records.size();
        }

        @Override
        public long checkpoint(MatchingEngine engine) {
            return records.size();
        }

        @Override
        public void close() {
        }
    }
}
