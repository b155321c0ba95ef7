package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.loop.LoopConfig;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.engine.matching.RestingOrderView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The book at any moment (#17): a random flow runs through the live journaled loop with periodic snapshots; at
 * random instants the matching thread itself captures every book (between two commands, the journal index and time
 * of the last command known); afterwards, for each instant and symbol, the book rebuilt from the journal by index
 * and by time equals the captured one, from a snapshot or from the journal's start, whichever the instant allows.
 */
class BookAtTest {
    private static final List<String> SESSIONS = List.of("CLIENT1", "CLIENT2", "CLIENT3");
    private static final int COMMANDS = 4_500;
    private static final int SNAPSHOT_EVERY = 1_000;

    @TempDir
    Path dir;

    /** The books of every symbol as the live engine had them after the command at {@code index}. */
    private record Capture(int beforeCommand, long index, long nanos, long nextNanos, List<List<String>> books) {
    }

    @Test
    void theBookRebuiltAtAnyInstantIsTheLiveBookOfThatInstant() {
        JournalConfig config = JournalConfig.at(dir).withSnapshotEvery(SNAPSHOT_EVERY);
        TreeSet<Integer> instants = new TreeSet<>(List.of(2, 1_000, 2_000, 2_999, 3_000, 3_001, 3_002, 4_001));
        SplittableRandom random = new SplittableRandom(17);
        while (instants.size() < 20) {
            instants.add(2 + random.nextInt(COMMANDS - 2));
        }
        List<Capture> captures = new ArrayList<>();
        ChroniclePersistence journal = ChroniclePersistence.open(config, TestFlow.SYMBOLS);
        MatchingRuntime[] runtime = new MatchingRuntime[1];
        long[] previousNanos = new long[1];
        AtomicInteger seen = new AtomicInteger(); // commands the matching thread has taken (and captured before)
        runtime[0] = new MatchingRuntime(TestFlow.ENGINE, LoopConfig.defaults().withIdleStrategy("yield"),
            new ObservedJournal(journal, command -> { // on the matching thread, before the command's append
                int number = seen.get() + 1; // this is command `number`; the engine holds the state before it
                if (instants.contains(number)) {
                    captures.add(new Capture(number, journal.lastIndex(), previousNanos[0], command.timestampNanos(),
                        books(runtime[0].engine())));
                }
                previousNanos[0] = command.timestampNanos();
                seen.set(number);
            }));
        runtime[0].recover();
        runtime[0].start();
        TestFlow flow = new TestFlow(2026);
        Command command = new Command();
        for (int i = 0; i < COMMANDS; i++) {
            flow.next(command);
            while (!runtime[0].inbound().offer(command)) {
                runtime[0].outbound().poll(event -> { }, 1_000);
            }
            runtime[0].outbound().poll(event -> { }, 1_000);
        }
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (seen.get() < COMMANDS) { // every capture made (and published by the counter)
            assertTrue(System.nanoTime() < deadline, "the loop took only " + seen.get() + " commands");
            Thread.onSpinWait();
        }
        BookAt bookAt = new BookAt(dir, TestFlow.ENGINE, SESSIONS);

        // while the loop still runs (its journal open for appends), then once it has stopped
        int fromSnapshots = checkAll(bookAt, captures);
        long last = journal.lastIndex(); // the stop appends nothing
        runtime[0].close();
        checkAll(bookAt, captures);
        List<List<String>> finalBooks = books(runtime[0].engine());

        assertEquals(instants.size(), captures.size());
        assertTrue(fromSnapshots >= 4 && fromSnapshots < captures.size() * TestFlow.SYMBOLS.size(),
            "both paths exercised: " + fromSnapshots + " of " + captures.size() * TestFlow.SYMBOLS.size()
                + " rebuilt from a snapshot");
        for (int symbol = 0; symbol < TestFlow.SYMBOLS.size(); symbol++) {
            String name = TestFlow.SYMBOLS.get(symbol).name();
            PastBook atEnd = bookAt.rebuild(name, new JournalInstant.AtIndex(last));
            assertEquals(finalBooks.get(symbol), lines(atEnd));
            assertNotNull(atEnd.snapshot(), "the clean stop's snapshot covers the last record");
            assertEquals(0, atEnd.replayedCommands());
            assertEquals(finalBooks.get(symbol), lines(bookAt.rebuild(name,
                new JournalInstant.AtTime(Instant.now().plusSeconds(3600)))), "a time after the last command");
        }
    }

    /** Checks every capture, every symbol, by index and by time; returns how many came from a snapshot. */
    private static int checkAll(BookAt bookAt, List<Capture> captures) {
        int fromSnapshots = 0;
        for (Capture capture : captures) {
            assertTrue(capture.nextNanos > capture.nanos, "distinct timestamps around command " + capture);
            for (int symbol = 0; symbol < TestFlow.SYMBOLS.size(); symbol++) {
                String name = TestFlow.SYMBOLS.get(symbol).name();
                String where = name + " before command " + capture.beforeCommand;
                PastBook byIndex = bookAt.rebuild(name, new JournalInstant.AtIndex(capture.index));
                assertEquals(capture.books.get(symbol), lines(byIndex), where + ", by index");
                assertEquals(capture.index, byIndex.lastCommandIndex(), where);
                assertEquals(capture.nanos, byIndex.lastCommandNanos(), where);
                if (byIndex.snapshot() != null) {
                    fromSnapshots++;
                    assertTrue(byIndex.snapshotIndex() <= capture.index, where + ": " + byIndex);
                    assertTrue(byIndex.replayedCommands() < SNAPSHOT_EVERY, where + ": " + byIndex);
                }
                for (long time : new long[] {capture.nanos, capture.nextNanos - 1}) {
                    PastBook byTime = bookAt.rebuild(name, new JournalInstant.AtTime(Instant.ofEpochSecond(0, time)));
                    assertEquals(capture.books.get(symbol), lines(byTime), where + ", by time " + time);
                    assertEquals(capture.index, byTime.lastCommandIndex(), where + ", by time " + time);
                }
            }
        }
        return fromSnapshots;
    }

    @Test
    void instantsOutsideTheJournalAndUnknownSymbolsAreRefusedInOneSentence() {
        JournalConfig config = JournalConfig.at(dir);
        JournaledRuns.run(config, new TestFlow(5), 50);
        long first;
        long last;
        long firstNanos;
        try (ChroniclePersistence journal = ChroniclePersistence.open(config, TestFlow.SYMBOLS)) {
            last = journal.lastIndex();
            long[] firstCommand = {-1, 0};
            journal.replay(command -> {
                if (firstCommand[0] < 0) {
                    firstCommand[0] = command.journalPosition();
                    firstCommand[1] = command.timestampNanos();
                }
            });
            first = firstCommand[0] - 1; // the symbol table before it
            firstNanos = firstCommand[1];
        }
        BookAt bookAt = new BookAt(dir, TestFlow.ENGINE, SESSIONS);

        JournalException beyond = assertThrows(JournalException.class,
            () -> bookAt.rebuild("AAPL", new JournalInstant.AtIndex(last + 1)));
        assertEquals("journal index " + JournalReader.describe(last + 1) + " is beyond the journal's last record "
            + JournalReader.describe(last), beyond.getMessage());
        JournalException before = assertThrows(JournalException.class,
            () -> bookAt.rebuild("AAPL", new JournalInstant.AtIndex(first - 1)));
        assertEquals("journal index " + JournalReader.describe(first - 1) + " is before the journal's first record "
            + JournalReader.describe(first), before.getMessage());
        Instant early = Instant.ofEpochSecond(0, firstNanos - 1);
        JournalException tooEarly = assertThrows(JournalException.class,
            () -> bookAt.rebuild("AAPL", new JournalInstant.AtTime(early)));
        assertEquals(early + " is before the journal's first command (" + JournalDump.utc(firstNanos) + ", record "
            + JournalReader.describe(first + 1) + ")", tooEarly.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> bookAt.rebuild("IBM", new JournalInstant.AtIndex(last)));
        assertEquals("unknown symbol IBM (the configured symbols: AAPL, MSFT, GOOG)", unknown.getMessage());
        JournalException missing = assertThrows(JournalException.class,
            () -> new BookAt(dir.resolve("none"), TestFlow.ENGINE, SESSIONS).rebuild("AAPL",
                new JournalInstant.AtIndex(last)));
        assertEquals("no journal at " + dir.resolve("none"), missing.getMessage());

        PastBook tablesOnly = bookAt.rebuild("AAPL", new JournalInstant.AtIndex(first));
        assertEquals(PastBook.NO_COMMAND, tablesOnly.lastCommandIndex(), "only the symbol table: no command yet");
        assertNull(tablesOnly.lastCommandTime());
        assertTrue(tablesOnly.bids().isEmpty() && tablesOnly.asks().isEmpty());
    }

    @Test
    void whatPeopleTypeIsReadAsAnIndexOrAUtcTime() {
        assertEquals(new JournalInstant.AtIndex(0x4e8f00000a1cL), JournalInstant.parse("0x4e8f00000a1c"));
        assertEquals(new JournalInstant.AtIndex(86_311_000_001L), JournalInstant.parse("86311000001"));
        assertEquals(new JournalInstant.AtTime(Instant.parse("2026-11-23T14:03:07.123Z")),
            JournalInstant.parse("2026-11-23T14:03:07.123Z"));
        assertEquals(1_795_442_587_123_000_000L,
            ((JournalInstant.AtTime) JournalInstant.parse("2026-11-23T14:03:07.123Z")).epochNanos());
        assertEquals(new JournalInstant.AtTime(Instant.parse("2026-11-23T13:03:07Z")),
            JournalInstant.parse("2026-11-23T14:03:07+01:00"));
        for (String wrong : new String[] {"", "yesterday", "2026-11-23T14:03:07", "0xZZ", "-5"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JournalInstant.parse(wrong));
            assertEquals("'" + wrong + "' is neither a journal index (decimal, or hexadecimal after 0x) nor a UTC"
                + " time like 2026-11-23T14:03:07.123Z", e.getMessage());
        }
    }

    /** Every order of every book, in priority order, one line each, as the test compares them. */
    private static List<List<String>> books(MatchingEngine engine) {
        List<List<String>> books = new ArrayList<>();
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            List<String> lines = new ArrayList<>();
            for (Side side : Side.values()) {
                engine.forEachRestingOrder(symbol, side, order -> lines.add(line(side.name(), order)));
            }
            books.add(lines);
        }
        return books;
    }

    private static String line(String side, RestingOrderView order) {
        return line(side, order.orderId(), SESSIONS.get(order.owner() - 1), order.clientOrderId().toString(),
            order.timeInForce().name(), order.price(), order.orderQuantity(), order.leavesQuantity(),
            order.cumQuantity());
    }

    private static List<String> lines(PastBook book) {
        List<String> lines = new ArrayList<>();
        book.bids().forEach(order -> lines.add(line(Side.BUY.name(), order)));
        book.asks().forEach(order -> lines.add(line(Side.SELL.name(), order)));
        return lines;
    }

    private static String line(String side, PastBook.Order order) {
        return line(side, order.orderId(), order.session(), order.clOrdId(), order.tif(), order.price(),
            order.quantity(), order.leaves(), order.filled());
    }

    private static String line(String side, long orderId, String session, String clOrdId, String tif, long price,
                               long quantity, long leaves, long filled) {
        return side + " " + orderId + " " + session + " " + clOrdId + " " + tif + " " + price + " " + quantity + " "
            + leaves + " " + filled;
    }
}
