package io.fixmatch.it.acceptance;

import io.fixmatch.fix.codec.testing.FixBuilder;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The documented minimal mapping between the definitions, written for QuickFIX/J's acceptance server, and fixmatch.
 *
 * <ol>
 *   <li><b>CompIDs, by configuration.</b> The definitions' server is {@code ISLD} and their client {@code TW}: each
 *       run's server has {@code fix.compId=ISLD} and one session, {@code TW}.</li>
 *   <li><b>Symbols, by configuration.</b> The orders name INTC, MSFT, CDG and IVP: the run's server lists exactly
 *       those symbols, so orders reach the engine.</li>
 *   <li><b>Fields the venue requires.</b> fixmatch requires OrderQty(38) on a NewOrderSingle (FIX 4.4 has it in an
 *       optional component); most definitions' orders have none. {@code 38=100} is appended to the body of every
 *       NewOrderSingle that lacks it, unless the line gives its own BodyLength (those lines are deliberately
 *       malformed and are sent as written).</li>
 *   <li><b>The answer to an order.</b> QuickFIX/J's acceptance server echoes a NewOrderSingle back (35=D). fixmatch
 *       answers with one ExecutionReport: where a definition expects the echo, an ExecutionReport (35=8) is expected
 *       instead, with the echo's header (BeginString, MsgSeqNum, PossDupFlag, SenderCompID, TargetCompID, and
 *       OrigSendingTime present if expected) and its ClOrdID(11), Side(54) and Symbol(55); the report's other fields
 *       are not compared. The orders are market orders (40=1) on empty books, so each gets exactly one report (a
 *       rejection: nothing to trade against), keeping the outgoing sequence numbers aligned with the echo's.</li>
 *   <li><b>Sequence numbers across connections.</b> QuickFIX/J's acceptance server resets them when a connection
 *       ends (ResetOnDisconnect=Y); fixmatch keeps them (docs/FIX.md). A definition with several connections one
 *       after the other (2i, 2k, 2o) therefore gets a fresh server for each: a new server starts whenever a
 *       connection opens while no other is open.</li>
 *   <li><b>The heartbeat interval of the timer definitions.</b> 4a and 6 log on with HeartBtInt(108)=6 and then
 *       only wait for the server's timers: its Heartbeats, its TestRequest after 1.2 intervals of silence, its
 *       disconnect an interval after an unanswered one (6 took 32 s). They log on with 108=3 instead, and the Logon
 *       answer is expected with 108=3: every one of those timers is a multiple of the interval, so the same messages
 *       come in the same order, in half the time (the narrowest margin, a Heartbeat due 0.2 intervals before a
 *       TestRequest, is still 600 ms).</li>
 * </ol>
 * Nothing else is changed: every other line is sent and compared as the definition says.
 */
final class VenueMapping {
    static final String SERVER_COMP_ID = "ISLD";
    static final String CLIENT_COMP_ID = "TW";
    static final String DEFAULT_ORDER_QTY = "100";

    /** Header fields of the echo that fixmatch's ExecutionReport must carry with the same value (or both lack). */
    private static final List<String> ECHOED_HEADER = List.of("8", "34", "43", "49", "56");
    /** Body fields of the echo that fixmatch's ExecutionReport must carry with the same value. */
    private static final List<String> ECHOED_BODY = List.of("11", "54", "55");

    private VenueMapping() {
    }

    /** The server configuration of a run (on top of the embedded defaults and the test servers' settings). */
    static Map<String, String> serverOverrides() {
        return Map.of(
            "fix.compId", SERVER_COMP_ID,
            "sessions", CLIENT_COMP_ID,
            "symbols", "INTC,MSFT,CDG,IVP",
            "engine.maxOrders", "1024",
            "engine.maxPriceLevels", "1024",
            "engine.inboundRingBytes", "65536",
            "engine.outboundRingBytes", "65536",
            // No definition waits for the logon timer; far above the runner's waits, it cannot race them.
            "fix.logonTimeoutMs", "60000");
    }

    /** The definitions' HeartBtInt that {@link #HEART_BT_INT} replaces (rule 6). */
    private static final String DEFINITIONS_HEART_BT_INT = "6";
    static final String HEART_BT_INT = "3";

    /** The tail (fields after BeginString, before CheckSum) of a well-formed line to send, with fields added. */
    static String onSend(String definitionsTail) {
        String tail = definitionsTail.replace(FixBuilder.SOH + "108=" + DEFINITIONS_HEART_BT_INT + FixBuilder.SOH,
            FixBuilder.SOH + "108=" + HEART_BT_INT + FixBuilder.SOH);
        Map<String, String> fields = ExpectedLine.fields(tail);
        if ("D".equals(fields.get("35")) && !fields.containsKey("38") && !tail.startsWith("9=")) {
            return tail + "38=" + DEFAULT_ORDER_QTY + FixBuilder.SOH;
        }
        return tail;
    }

    /** The fields of an expected line as compared: a Logon's HeartBtInt as the Logon sent it (rule 6). */
    static Map<String, String> onExpectedFields(Map<String, String> fields) {
        if (DEFINITIONS_HEART_BT_INT.equals(fields.get("108"))) {
            fields.put("108", HEART_BT_INT);
        }
        return fields;
    }

    /** What replaces the definition's expectation, or null where it is compared as written. */
    static Expectation onExpect(Map<String, String> expected) {
        return "D".equals(expected.get("35")) ? new OrderAnswer(expected) : null;
    }

    /** A comparison of a received message's fields. */
    interface Expectation {
        /** Null if it matches, else what differs. */
        String mismatch(Map<String, String> received);
    }

    /** fixmatch's ExecutionReport where the definition expects the echo of an order. */
    private record OrderAnswer(Map<String, String> echo) implements Expectation {
        @Override
        public String mismatch(Map<String, String> received) {
            if (!"8".equals(received.get("35"))) {
                return "MsgType " + received.get("35") + " instead of 8 (ExecutionReport, for the echo 35=D)";
            }
            for (String tag : ECHOED_HEADER) {
                if (!Objects.equals(echo.get(tag), received.get(tag))) {
                    return tag + "=" + received.get(tag) + " instead of " + tag + "=" + echo.get(tag);
                }
            }
            for (String tag : ECHOED_BODY) {
                if (!Objects.equals(echo.get(tag), received.get(tag))) {
                    return tag + "=" + received.get(tag) + " instead of " + tag + "=" + echo.get(tag);
                }
            }
            if (echo.containsKey("122") && !received.containsKey("122")) {
                return "field 122 (OrigSendingTime) missing";
            }
            return null;
        }
    }
}
