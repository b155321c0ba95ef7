package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.matching.MatchingEngine;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dump's two forms, field by field, on a journal holding one command of each kind: decimal prices at each
 * symbol's recorded scale, sessions by name, UTC times to the nanosecond, and in JSON exactly the keys that apply.
 */
class JournalDumpTest {
    /** 2026-11-23T08:00:00.000000009Z: the trailing nanoseconds must survive. */
    private static final long T0 = 1_795_420_800_000_000_009L;

    @TempDir
    Path journalDir;

    @BeforeEach
    void writeOneCommandOfEachKind() {
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(journalDir),
            TestFlow.SYMBOLS)) {
            journal.recoverInto(new MatchingEngine(TestFlow.ENGINE, event -> { }));
            append(journal, new Command().newOrder(1, "b1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 15_025, 100)
                .timestampNanos(T0));
            append(journal, new Command().newOrder(2, "s1", 2, Side.SELL, OrderType.MARKET, TimeInForce.IOC, 0, 7)
                .timestampNanos(T0 + 123_456_780));
            append(journal, new Command().replace(1, "b2", "b1", 0, Side.BUY, 15_030, 150).timestampNanos(T0 + 1_000));
            append(journal, new Command().cancel(1, "x1", "b2", 0, Side.BUY).timestampNanos(T0 + 2_000));
            append(journal, new Command().cancelAllForOwner(2).timestampNanos(T0 + 3_000));
            append(journal, new Command().newOrder(9, "g1", 2, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 1_400_100, 1)
                .timestampNanos(T0 + 4_000));
            append(journal, new Command().haltSymbol(1).timestampNanos(T0 + 5_000));
            append(journal, new Command().resumeSymbol(1).timestampNanos(T0 + 6_000));
        }
    }

    @Test
    void jsonIsOneObjectPerCommandWithTheKeysThatApply() {
        List<String> lines = dump(JournalDump.Format.JSON);
        assertEquals(8, lines.size(), String.join("\n", lines));
        String index = "\\{\"index\":\\d+,";
        assertMatches(index + "\"time\":\"2026-11-23T08:00:00.000000009Z\",\"type\":\"NEW_ORDER\","
            + "\"session\":\"CLIENT1\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"ordType\":\"LIMIT\",\"tif\":\"DAY\","
            + "\"price\":\"150.25\",\"qty\":100,\"clOrdId\":\"b1\"}", lines.get(0));
        assertMatches(index + "\"time\":\"2026-11-23T08:00:00.123456789Z\",\"type\":\"NEW_ORDER\","
            + "\"session\":\"CLIENT2\",\"symbol\":\"GOOG\",\"side\":\"SELL\",\"ordType\":\"MARKET\",\"tif\":\"IOC\","
            + "\"qty\":7,\"clOrdId\":\"s1\"}", lines.get(1));
        assertMatches(index + "\"time\":\"2026-11-23T08:00:00.000001009Z\",\"type\":\"REPLACE\","
            + "\"session\":\"CLIENT1\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"ordType\":\"LIMIT\","
            + "\"price\":\"150.30\",\"qty\":150,\"clOrdId\":\"b2\",\"origClOrdId\":\"b1\"}", lines.get(2));
        assertMatches(index + "\"time\":\"2026-11-23T08:00:00.000002009Z\",\"type\":\"CANCEL\","
            + "\"session\":\"CLIENT1\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"clOrdId\":\"x1\",\"origClOrdId\":\"b2\"}",
            lines.get(3));
        assertMatches(index + "\"time\":\"2026-11-23T08:00:00.000003009Z\",\"type\":\"CANCEL_ALL_FOR_OWNER\","
            + "\"session\":\"CLIENT2\"}", lines.get(4));
        assertMatches(index + "\"time\":\"2026-11-23T08:00:00.000004009Z\",\"type\":\"NEW_ORDER\","
            + "\"session\":\"#9\",\"symbol\":\"GOOG\",\"side\":\"BUY\",\"ordType\":\"LIMIT\",\"tif\":\"GTC\","
            + "\"price\":\"140.0100\",\"qty\":1,\"clOrdId\":\"g1\"}", lines.get(5));
        assertMatches(index + "\"time\":\"2026-11-23T08:00:00.000005009Z\",\"type\":\"HALT_SYMBOL\","
            + "\"session\":\"operator\",\"symbol\":\"MSFT\"}", lines.get(6));
        assertMatches(index + "\"time\":\"2026-11-23T08:00:00.000006009Z\",\"type\":\"RESUME_SYMBOL\","
            + "\"session\":\"operator\",\"symbol\":\"MSFT\"}", lines.get(7));
    }

    @Test
    void textIsOneLinePerRecordWithTheSameFields() {
        List<String> lines = dump(JournalDump.Format.TEXT);
        assertEquals(9, lines.size(), String.join("\n", lines));
        assertMatches("0x[0-9a-f]+ SYMBOLS .*AAPL.*MSFT.*GOOG.*", lines.get(0));
        assertMatches("0x[0-9a-f]+ 2026-11-23T08:00:00.000000009Z CLIENT1 NEW_ORDER AAPL BUY LIMIT DAY 100 @ 150.25"
            + " clOrdId=b1", lines.get(1));
        assertMatches("0x[0-9a-f]+ 2026-11-23T08:00:00.000001009Z CLIENT1 REPLACE AAPL BUY LIMIT 150 @ 150.30"
            + " clOrdId=b2 origClOrdId=b1", lines.get(3));
        assertMatches("0x[0-9a-f]+ 2026-11-23T08:00:00.000003009Z CLIENT2 CANCEL_ALL_FOR_OWNER", lines.get(5));
        assertMatches("0x[0-9a-f]+ 2026-11-23T08:00:00.000005009Z operator HALT_SYMBOL MSFT", lines.get(7));
    }

    /**
     * The settings the server journals at start: a session's setting by name and value (an unknown code as its
     * number), a reference price as a decimal at the symbol's scale in {@code price}; the end of day by its type.
     */
    @Test
    void settingsShowTheSettingAndValueAndAReferencePriceItsPrice() {
        Path settingsJournal = journalDir.resolve("settings");
        try (ChroniclePersistence journal = ChroniclePersistence.open(JournalConfig.at(settingsJournal),
            TestFlow.SYMBOLS)) {
            journal.recoverInto(new MatchingEngine(TestFlow.ENGINE, event -> { }));
            append(journal, new Command().setSessionControl(1, SessionControl.MAX_ORDER_QUANTITY, 1000)
                .timestampNanos(T0));
            append(journal, new Command().setSessionControl(2, SessionControl.SELF_TRADE_PREVENTION, 2)
                .timestampNanos(T0 + 1_000));
            append(journal, new Command().setReferencePrice(0, 15_025).timestampNanos(T0 + 2_000));
            append(journal, new Command().expireDayOrders().timestampNanos(T0 + 3_000));
        }
        List<String> json = dump(settingsJournal, JournalDump.Format.JSON, 4);
        String index = "\\{\"index\":\\d+,";
        assertMatches(index + "\"time\":\"2026-11-23T08:00:00.000000009Z\",\"type\":\"SET_SESSION_CONTROL\","
            + "\"session\":\"CLIENT1\",\"setting\":\"MAX_ORDER_QUANTITY=1000\"}", json.get(0));
        assertMatches(index + "\"time\":\"2026-11-23T08:00:00.000001009Z\",\"type\":\"SET_SESSION_CONTROL\","
            + "\"session\":\"CLIENT2\",\"setting\":\"SELF_TRADE_PREVENTION=2\"}", json.get(1));
        assertMatches(index + "\"time\":\"2026-11-23T08:00:00.000002009Z\",\"type\":\"SET_REFERENCE_PRICE\","
            + "\"session\":\"operator\",\"symbol\":\"AAPL\",\"price\":\"150.25\"}", json.get(2));
        assertMatches(index + "\"time\":\"2026-11-23T08:00:00.000003009Z\",\"type\":\"EXPIRE_DAY_ORDERS\","
            + "\"session\":\"operator\"}", json.get(3));

        List<String> text = dump(settingsJournal, JournalDump.Format.TEXT, 4);
        assertMatches("0x[0-9a-f]+ 2026-11-23T08:00:00.000000009Z CLIENT1 SET_SESSION_CONTROL"
            + " MAX_ORDER_QUANTITY=1000", text.get(1));
        assertMatches("0x[0-9a-f]+ 2026-11-23T08:00:00.000002009Z operator SET_REFERENCE_PRICE AAPL @ 150.25",
            text.get(3));
    }

    private List<String> dump(JournalDump.Format format) {
        return dump(journalDir, format, 8);
    }

    private static List<String> dump(Path journal, JournalDump.Format format, long expectedCommands) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        List<String> names = List.of("CLIENT1", "CLIENT2");
        long commands = JournalDump.dump(journal, format,
            owner -> owner >= 1 && owner <= names.size() ? names.get(owner - 1) : "#" + owner,
            new PrintStream(text, true, StandardCharsets.UTF_8));
        assertEquals(expectedCommands, commands);
        return text.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static void append(ChroniclePersistence journal, Command command) {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[CommandCodec.MAX_LENGTH]);
        journal.append(buffer, 0, CommandCodec.encode(command, buffer, 0));
    }

    private static void assertMatches(String regex, String line) {
        assertTrue(line.matches(regex), "expected " + regex + "\n but was " + line);
    }
}
