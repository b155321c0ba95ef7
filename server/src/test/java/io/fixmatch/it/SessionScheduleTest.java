package io.fixmatch.it;

import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.session.SessionStore;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.IntStream;

import static io.fixmatch.fix.codec.testing.FixBuilder.SOH;
import static io.fixmatch.it.Orders.BUY;
import static io.fixmatch.it.Orders.assertFields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A session schedule (08:00-17:30 Europe/London, Monday to Friday, sequence numbers reset at each start) against an
 * unmodified QuickFIX/J initiator, the schedule read against a clock the test moves: outside the schedule a Logon is
 * refused with a Logout saying so, inside it is accepted with both sequence numbers back at 1, at the end the session
 * is logged out; the reset is stored, so a restart within the trading session does not reset again and one in the
 * next trading session does, without resending the previous one's messages.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SessionScheduleTest {
    private static final ZoneId LONDON = ZoneId.of("Europe/London");
    private static final Map<String, String> CONFIG = Map.of("sessions", "CLIENT1,CLIENT2",
        "session.CLIENT1.schedule", "08:00-17:30", "session.CLIENT1.timeZone", "Europe/London",
        "session.CLIENT1.scheduleDays", "MON-FRI", "session.CLIENT1.resetOnSessionStart", "true");

    @TempDir
    Path temp;
    @RegisterExtension
    final ServerAndClients running = new ServerAndClients();
    private FixmatchServer server;

    /** 2026-06-01 is a Monday (British Summer Time: London is UTC+1). */
    private static Instant london(int dayOfJune, int hour, int minute) {
        return LocalDateTime.of(2026, 6, dayOfJune, hour, minute).atZone(LONDON).toInstant();
    }

    @Test
    void aLogonOutsideTheScheduleIsRefusedInsideItStartsAtOneAndTheEndLogsTheSessionOut() throws Exception {
        MovableClock clock = new MovableClock(london(1, 7, 0));
        server = running.use(FixmatchServer.start(TestServers.config(temp, 0, CONFIG), clock));
        QfjClient client = new QfjClient("CLIENT1", server.port(), new QfjClient.Options()
            .setting("ResetOnDisconnect", "Y")); // a client that starts each connection at 1, as the venue does daily
        running.add(client);
        client.start();
        awaitLogout(client, 1, "Logon refused: outside the session's schedule (08:00-17:30 Europe/London MON,TUE,WED,"
            + "THU,FRI, sequence reset at start)");
        assertFalse(client.isLoggedOn());

        clock.set(london(1, 8, 30));
        client.awaitLogons(1);
        assertEquals("1", lastLogonSeqNum(client), "the server's Logon after the reset at the session's start");
        client.send(Orders.limit("A1", "AAPL", BUY, 10, "10.00"));
        assertFields(client.nextApp("8"), 11, "A1", 150, "0", 34, "2");

        clock.set(london(1, 17, 30));
        awaitLogout(client, 1, "end of the trading session (schedule 08:00-17:30");
        client.awaitLoggedOut();

        clock.set(london(6, 9, 0)); // a Saturday
        int refusals = count(client, "outside the session's schedule");
        awaitLogout(client, refusals + 1, "outside the session's schedule");

        clock.set(london(9, 8, 0)); // Tuesday 08:00: a new trading session
        client.awaitLogons(2);
        assertEquals("1", lastLogonSeqNum(client), "the next trading session starts at 1 again");
        client.send(Orders.limit("A2", "AAPL", BUY, 10, "10.00"));
        assertFields(client.nextApp("8"), 11, "A2", 150, "0", 34, "2");
        client.assertNoProtocolErrors();
    }

    @Test
    void theResetIsStoredAndHappensOncePerTradingSessionAcrossRestarts() throws Exception {
        MovableClock clock = new MovableClock(london(1, 9, 0));
        ServerConfig config = TestServers.config(temp, 0, CONFIG);
        server = running.use(FixmatchServer.start(config, clock));
        QfjClient client = new QfjClient("CLIENT1", server.port(), new QfjClient.Options());
        running.add(client);
        client.start();
        client.awaitLogons(1);
        client.send(Orders.limit("A1", "AAPL", BUY, 10, "10.00"));
        assertFields(client.nextApp("8"), 11, "A1", 150, "0");
        client.close();
        server.close();
        Path store = config.withDataDirectory(temp).sessionDirectory(config.sessions().get(0));
        long nextOut = storedNextOut(store, london(1, 8, 0));

        server = running.use(startAndAwaitTimers(config, clock)); // the same trading session: no second reset
        server.close();
        assertEquals(nextOut, storedNextOut(store, london(1, 8, 0)), "next MsgSeqNum out after a restart");

        clock.set(london(2, 8, 0));
        server = running.use(startAndAwaitTimers(config, clock)); // the next trading session: reset, and stored
        server.close();
        try (SessionStore reopened = new SessionStore(store)) {
            assertEquals(london(2, 8, 0).toEpochMilli(), reopened.tradingSessionStart());
            assertEquals(1, reopened.nextSenderSeqNum());
            assertEquals(1, reopened.nextTargetSeqNum());
            assertEquals(-1, reopened.nextStoredAtOrAfter(1), "the previous trading session's messages are not resent");
        }
    }

    /**
     * Starts the server and waits until every gateway has run its timers once after the start: a timer added here
     * runs after the sessions' own, which check the schedule (and reset a session whose trading session began).
     */
    private static FixmatchServer startAndAwaitTimers(ServerConfig config, Clock clock)
        throws InterruptedException {
        FixmatchServer started = FixmatchServer.create(config, clock);
        List<Gateway> gateways = started.gateways().all();
        AtomicIntegerArray ticks = new AtomicIntegerArray(gateways.size());
        for (Gateway gateway : gateways) {
            gateway.addTimer(nowMs -> ticks.incrementAndGet(gateway.index()));
        }
        started.open();
        QfjClient.awaitCondition(() -> IntStream.range(0, ticks.length()).allMatch(i -> ticks.get(i) > 0),
            "a timer tick on every gateway");
        return started;
    }

    private static long storedNextOut(Path directory, Instant tradingSessionStart) {
        try (SessionStore store = new SessionStore(directory)) {
            assertEquals(tradingSessionStart.toEpochMilli(), store.tradingSessionStart(), "stored trading session");
            assertFalse(store.nextSenderSeqNum() <= 2, "messages were sent: " + store.nextSenderSeqNum());
            return store.nextSenderSeqNum();
        }
    }

    private static void awaitLogout(QfjClient client, int count, String text) throws InterruptedException {
        QfjClient.awaitCondition(() -> count(client, text) >= count,
            () -> "Logout number " + count + " containing '" + text + "'; received " + client.incomingRaw());
    }

    private static int count(QfjClient client, String text) {
        return (int) client.incomingRaw().stream()
            .filter(raw -> raw.contains(SOH + "35=5" + SOH) && raw.contains(text)).count();
    }

    private static String lastLogonSeqNum(QfjClient client) {
        List<String> logons = client.incomingRaw().stream().filter(raw -> raw.contains(SOH + "35=A" + SOH))
            .toList();
        String logon = logons.get(logons.size() - 1);
        int start = logon.indexOf(SOH + "34=") + 4;
        return logon.substring(start, logon.indexOf(SOH, start));
    }
}
