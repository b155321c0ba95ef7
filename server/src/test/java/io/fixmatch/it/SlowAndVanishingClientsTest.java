package io.fixmatch.it;

import io.fixmatch.fix.codec.testing.FixBuilder;
import io.fixmatch.server.FixmatchServer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Slow and vanishing clients over real sockets, with Netty's leak detection at PARANOID: a client that stops reading
 * fills its bounded outbound buffer ({@code fix.maxPendingBytes}) and is disconnected, its resting order canceled
 * (cancel-on-disconnect) while another session trades on; it reconnects and gets everything by resend. Clients that
 * vanish mid-message and mid-resend leave no buffer behind, and the session logs on and resends again.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SlowAndVanishingClientsTest {
    /**
     * 1 MiB: the slow client's 40,000 reports (about 9 MB) overflow it and the kernel's buffers many times over, while
     * a resend of the last few thousand messages to a client that reads fits (the server writes a resend's answer at
     * once: a ResendRequest whose answer exceeds the limit beyond what the socket takes disconnects the client too).
     */
    private static final int MAX_PENDING = 1 << 20;
    private static final int RESEND_RANGE = 3000;
    private static final int STATUS_REQUESTS = 40_000;
    private static final Duration TIMEOUT = RawFixClient.TIMEOUT;

    @TempDir
    static Path data;
    private static NettyLeaks leaks;
    private static ObservedServer running;
    private static FixmatchServer server;
    private static QfjClient observer;

    @BeforeAll
    static void start() throws Exception {
        leaks = new NettyLeaks(); // before the server: every buffer it allocates is tracked
        running = ObservedServer.start(data, Map.of("fix.maxPendingBytes", String.valueOf(MAX_PENDING),
            "session.CLIENT1.cancelOnDisconnect", "true"));
        server = running.server();
        observer = running.observer();
    }

    @AfterAll
    static void stop() {
        TestServers.closeQuietly(running, leaks);
    }

    @Test
    void aClientThatStopsReadingIsDisconnectedAndItsOrdersCanceledThenItResendsEverything() throws Exception {
        long nextSeqNum;
        try (Socket slow = new Socket()) {
            slow.setReceiveBufferSize(4096); // before connecting: a small TCP window, so the server's bytes back up
            slow.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
            OutputStream out = slow.getOutputStream();
            long seqNum = 1;
            out.write(FixBuilder.header("A", "CLIENT1", "FIXMATCH", seqNum++).field(98, 0).field(108, 30)
                .field(141, "Y").bytes());
            out.write(FixBuilder.header("D", "CLIENT1", "FIXMATCH", seqNum++).field(11, "SLOW-REST").field(55, "XOM")
                .field(54, 1).field(60, FixBuilder.now()).field(38, 5).field(40, 2).field(44, "1.00").bytes());
            nextSeqNum = writeStatusRequests(out, seqNum); // and never read
            observerTrades("DURING-STALL"); // the gateway never waits for the slow client

            assertClosedByServer(slow);
        }

        LoggedOn loggedOn = logOnWithoutReset(nextSeqNum);
        RawFixClient back = loggedOn.client();
        long lastSent = loggedOn.logon().seqNum() - 1; // the server's last message before this Logon
        back.send(back.header("2").field(7, Math.max(1, lastSent - RESEND_RANGE)).field(16, 0));
        boolean canceled = false;
        long lastSeqNum = 0;
        RawFix.Msg message;
        do {
            message = back.next();
            if (message.type().equals("2")) { // we logged on too high (the server stopped reading us): gap-fill it
                back.send(FixBuilder.header("4", "CLIENT1", "FIXMATCH", Long.parseLong(message.get(7)))
                    .field(43, "Y").field(122, FixBuilder.now()).field(123, "Y").field(36, back.peekSeqNum()));
                continue;
            }
            if (message.type().equals("8") && "SLOW-REST".equals(message.get(11)) && "4".equals(message.get(150))) {
                canceled = true;
            }
            lastSeqNum = Math.max(lastSeqNum, message.seqNum());
        } while (!endsTheResend(message, loggedOn.logon()));
        assertTrue(canceled, "the slow client's resting order was canceled when it was disconnected");
        assertTrue(lastSeqNum >= lastSent, "resent up to " + lastSeqNum + " of " + lastSent);
        back.logout();
        back.close();
        assertNoLeaks();
    }

    @Test
    void clientsVanishingMidMessageAndMidResendLeakNothingAndTheSessionResendsAgain() throws Exception {
        RawFixClient first = RawFixClient.loggedOn(server.port(), "CLIENT1", 30);
        for (int i = 0; i < 2000; i++) { // something worth resending
            first.send(first.header("H").field(11, "NONE-" + i).field(55, "XOM").field(54, 1));
        }
        for (int i = 0; i < 2000; i++) {
            first.expect("8");
        }
        long next = first.peekSeqNum();
        vanish(first); // after its requests were answered: nothing half-done

        RawFixClient midResend = logOnWithoutReset(next++).client();
        midResend.send(midResend.header("2").field(7, 1).field(16, 0));
        next++;
        midResend.nextMatching(m -> "Y".equals(m.get(43)), 10); // the resend has begun
        vanish(midResend); // while the server writes the rest of it

        RawFixClient midMessage = logOnWithoutReset(next++).client();
        byte[] order = midMessage.newOrder("HALF", "XOM", "1", 1, "1.00").bytes();
        midMessage.send(java.util.Arrays.copyOf(order, order.length / 2));
        vanish(midMessage);

        LoggedOn lastLoggedOn = logOnWithoutReset(next + 1); // the half message took no number: a gap
        RawFixClient last = lastLoggedOn.client();
        RawFix.Msg lastLogon = lastLoggedOn.logon();
        RawFix.Msg resendRequest = last.expect("2");
        long gapStart = Long.parseLong(resendRequest.get(7));
        assertEquals(next, gapStart, "the half message was not taken for one");
        last.send(FixBuilder.header("4", "CLIENT1", "FIXMATCH", gapStart).field(43, "Y").field(122, FixBuilder.now())
            .field(123, "Y").field(36, last.peekSeqNum()));
        last.send(last.header("2").field(7, 1).field(16, 0));
        int resentReports = 0;
        RawFix.Msg message;
        do {
            message = last.next();
            if (message.type().equals("8") && "Y".equals(message.get(43))) {
                resentReports++;
            }
        } while (!endsTheResend(message, lastLogon));
        assertTrue(resentReports >= 2000, "the status reports resent: " + resentReports);
        observerTrades("AFTER-VANISH");
        last.logout();
        last.close();
        assertNoLeaks();
    }

    @Test
    void theLeakCheckSeesALeak() throws Exception {
        ByteBuf leaked = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        leaked.writeLong(42);
        leaked = null; // never released: the detector must report it
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (leaks.collect().stream().noneMatch(SlowAndVanishingClientsTest::isDeliberate)) {
            if (System.nanoTime() > deadline) {
                fail("the leak detector did not report a deliberately leaked buffer: the leak checks prove nothing");
            }
        }
    }

    private static boolean isDeliberate(String report) {
        return report.contains("theLeakCheckSeesALeak");
    }

    private static void assertNoLeaks() throws InterruptedException {
        List<String> found = leaks.collect().stream().filter(report -> !isDeliberate(report)).toList();
        assertEquals(List.of(), found, "Netty buffers never released");
    }

    /** Writes the status requests from a thread (the server may close the connection mid-way); the next number. */
    private static long writeStatusRequests(OutputStream out, long firstSeqNum) throws InterruptedException {
        long[] next = {firstSeqNum};
        Thread writer = new Thread(() -> {
            try {
                for (int i = 0; i < STATUS_REQUESTS; i++) {
                    out.write(FixBuilder.header("H", "CLIENT1", "FIXMATCH", next[0]).field(11, "ST-" + i)
                        .field(55, "XOM").field(54, 1).bytes());
                    next[0]++;
                }
            } catch (IOException e) {
                // closed by the server as a slow consumer
            }
        }, "slow-writer");
        writer.start();
        writer.join(TimeUnit.SECONDS.toMillis(60));
        return next[0];
    }

    /** The server closes the slow socket: what is buffered is read, then the end of the stream (or a reset). */
    private static void assertClosedByServer(Socket slow) throws IOException {
        slow.setSoTimeout((int) TIMEOUT.toMillis());
        InputStream in = slow.getInputStream();
        byte[] buffer = new byte[1 << 16];
        try {
            while (in.read(buffer) >= 0) {
                // drain what the kernel still holds
            }
        } catch (java.net.SocketTimeoutException e) {
            fail("the server did not disconnect the client that stopped reading");
        } catch (IOException e) {
            // reset by the server: closed
        }
    }

    /**
     * Whether {@code message} is the last of a resend from before the server's {@code logon} to its end: the gap fill
     * over that Logon, which is an admin message, as is all the server sent after it (its ResendRequest, if any).
     * Nothing follows it until the next Heartbeat, so the client may log out next.
     */
    private static boolean endsTheResend(RawFix.Msg message, RawFix.Msg logon) {
        return message.type().equals("4") && "Y".equals(message.get(123))
            && Long.parseLong(message.get(36)) > logon.seqNum();
    }

    /** A connection logged on, and the server's Logon. */
    private record LoggedOn(RawFixClient client, RawFix.Msg logon) {
    }

    /** Logs CLIENT1 on with {@code seqNum} (no reset), retrying while the server still holds the old connection. */
    private static LoggedOn logOnWithoutReset(long seqNum) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            RawFixClient client = new RawFixClient(server.port(), "CLIENT1");
            client.seqNum(seqNum);
            client.send(client.header("A").field(98, 0).field(108, 30));
            RawFix.Msg reply = client.next();
            if (reply.type().equals("A")) {
                return new LoggedOn(client, reply);
            }
            client.close();
            if (!"5".equals(reply.type()) || reply.get(58) == null || !reply.get(58).contains("already logged on")
                || System.nanoTime() > deadline) {
                fail("logon refused: " + reply);
            }
            Thread.sleep(20);
        }
    }

    /** Closes with a reset (SO_LINGER 0): gone at once, whatever the server was writing. */
    private static void vanish(RawFixClient client) throws IOException {
        client.resetAndClose();
    }

    private static void observerTrades(String prefix) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            observer.send(Orders.limit(prefix + "-" + i, "V", Orders.BUY, 1, "1.00"));
            Orders.assertFields(observer.nextApp("8"), 11, prefix + "-" + i, 150, "0");
        }
    }
}
