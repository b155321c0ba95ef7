package io.fixmatch.cluster;

import io.fixmatch.cluster.client.ClusterEngineLink;
import io.fixmatch.cluster.client.StoredOrigins;
import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.cluster.protocol.GatewayProcess;
import io.fixmatch.cluster.protocol.Ingress;
import io.fixmatch.cluster.protocol.VenueFingerprint;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.engine.loop.CommandTrace;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.engine.loop.TracedEventSink;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who holds a session and how its numbers go on, decided by a real cluster node (issue #30): a raw gateway that the
 * test makes fall silent, and a well-behaved one ({@link ClusterEngineLink}) logging the same sessions on. A silent
 * holder's session is taken over, the messages it sends late are not numbered (fencing), and the new holder
 * continues the numbers and gets, by a resend from the cluster's copy, what the lost one sent and what was made while
 * nobody held the session; a holder that stays alive keeps its session, the claim refused once it waited long enough.
 */
@Timeout(180)
class SessionOwnershipTest {
    private static final long FINGERPRINT = VenueFingerprint.of(TestCluster.SYMBOLS, TestCluster.OWNERS);
    private static final int RAW_GATEWAY = 3;
    private static final int MSG_TYPE_NEWS = 'B';

    @Test
    void aSilentHoldersSessionIsTakenOverItsLateMessageIsNotNumberedAndTheNewHolderGetsEverything() throws Exception {
        try (TestCluster cluster = new TestCluster(TestCluster.tempRoot(), 1).startAll()) {
            cluster.awaitLeader(60_000);
            try (RawClusterClient lost = new RawClusterClient(cluster); Gateway next = new Gateway(cluster, 1)) {
                UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024));
                hello(lost, message);
                lost.send(message, claim(message, 1, 1));
                lost.awaitRecord(SessionCodec.GRANTED);
                lost.send(message, out(message, 2, 1, "58=before"));
                lost.awaitRecord(SessionCodec.NUMBERED);

                next.claim(2, 1); // waits: the holder is alive until silent for the gateway timeout
                long answer = SessionCodec.grantedAnswerSeqNum(next.recordOf(SessionCodec.GRANTED), 0);
                assertEquals(3, answer, "the numbers go on: 1 the first Logon's answer, 2 the lost gateway's message");
                lost.send(message, out(message, 3, 1, "58=late"));
                lost.awaitRecord(SessionCodec.REVOKED);

                next.out(1, "58=next");
                long numbered = next.awaitNumbered(SessionCodec.OUT);
                assertEquals(4, numbered, "the lost gateway's late message took no number");

                next.resend(1, 1);
                next.awaitRecord(SessionCodec.RESEND_DONE);
                assertEquals(List.of("1 gap", "2 58=before", "3 gap", "4 gap"), next.resent(),
                    "a resend answered from the cluster's copy: the lost gateway's stored message included, unstored"
                        + " ones gap-filled");
            }
        }
    }

    @Test
    void aHolderThatStaysAliveKeepsItsSessionTheClaimIsRefusedAndAReleaseLetsItGo() throws Exception {
        try (TestCluster cluster = new TestCluster(TestCluster.tempRoot(), 1).startAll()) {
            cluster.awaitLeader(60_000);
            try (RawClusterClient holder = new RawClusterClient(cluster); Gateway other = new Gateway(cluster, 1)) {
                UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024));
                hello(holder, message);
                holder.send(message, claim(message, 1, 2));
                holder.awaitRecord(SessionCodec.GRANTED);

                other.offerClaim(2, 2);
                long sequence = 2;
                long refusedBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (other.recordOf(SessionCodec.REFUSED) == null) {
                    holder.send(message, keepalive(message, sequence++)); // alive
                    holder.pollFor(200);
                    other.poll();
                    assertTrue(System.nanoTime() < refusedBy, "the claim was never answered");
                }
                DirectBuffer refused = other.recordOf(SessionCodec.REFUSED);
                assertEquals("the session is logged on at another gateway",
                    SessionCodec.refusedReason(refused, 0, refused.capacity()));
                assertEquals(0, SessionCodec.refusedLogoutSeqNum(refused, 0), "its Logout is outside the numbering");

                holder.send(message, release(message, sequence, 2));
                other.claim(2, 2);
            }
        }
    }

    @Test
    void aFillMadeWhileNobodyHoldsTheSessionReachesItsClientByTheResendAtItsNextLogon() throws Exception {
        try (TestCluster cluster = new TestCluster(TestCluster.tempRoot(), 1).startAll()) {
            cluster.awaitLeader(60_000);
            try (Gateway gateway = new Gateway(cluster, 1)) {
                gateway.claim(1, 1, 2);
                Command command = new Command();
                assertTrue(gateway.inbound.offer(command.newOrder(1, "rest", 0, Side.BUY, OrderType.LIMIT,
                    TimeInForce.DAY, 15_000, 10)));
                long acknowledged = gateway.awaitNumbered(0);
                gateway.release(1); // the client of session 1 logged out
                assertTrue(gateway.inbound.offer(command.newOrder(2, "take", 0, Side.SELL, OrderType.LIMIT,
                    TimeInForce.DAY, 15_000, 10)));
                gateway.awaitEvents(event -> event.startsWith("2 ") && event.endsWith(" 10")); // the seller's fill
                gateway.records.clear();
                gateway.claim(2, 1);
                long answer = SessionCodec.grantedAnswerSeqNum(gateway.recordOf(SessionCodec.GRANTED), 0);
                assertEquals(acknowledged + 2, answer, "the fill made meanwhile took the number after the ack");
                gateway.resend(1, acknowledged + 1);
                gateway.awaitRecord(SessionCodec.RESEND_DONE);
                assertEquals(List.of((acknowledged + 1) + " fill 10"), gateway.resent().subList(0, 1));
            }
        }
    }

    // --- the raw gateway's messages: COMMANDs in its gateway sequence carrying session requests ---

    private static void hello(RawClusterClient gateway, UnsafeBuffer message) throws InterruptedException {
        gateway.send(message, Ingress.encodeHello(message, 0, RAW_GATEWAY, FINGERPRINT, new int[] {1, 2, 3},
            new GatewayProcess(7, 7, 0, 0)));
        gateway.awaitEgress(Egress.WELCOME);
    }

    private static int command(UnsafeBuffer message, long sequence, int type, int length) {
        Ingress.encodeCommandHeader(message, 0, type, sequence, 0);
        return Ingress.COMMAND_HEADER_LENGTH + length;
    }

    private static int claim(UnsafeBuffer message, long sequence, int owner) {
        return command(message, sequence, SessionCodec.CLAIM,
            SessionCodec.encodeClaim(message, Ingress.COMMAND_HEADER_LENGTH, owner, 1, false, 0));
    }

    private static int release(UnsafeBuffer message, long sequence, int owner) {
        return command(message, sequence, SessionCodec.RELEASE,
            SessionCodec.encodeOwner(message, Ingress.COMMAND_HEADER_LENGTH, owner));
    }

    private static int keepalive(UnsafeBuffer message, long sequence) {
        return command(message, sequence, SessionCodec.KEEPALIVE, 0);
    }

    private static int out(UnsafeBuffer message, long sequence, int owner, String body) {
        return command(message, sequence, SessionCodec.OUT,
            writeOut(message, Ingress.COMMAND_HEADER_LENGTH, owner, SessionCodec.STORED, body));
    }

    /** An OUT of {@code body} (fields, SOH added) at {@code offset}; returns its length. */
    private static int writeOut(UnsafeBuffer buffer, int offset, int owner, int flags, String body) {
        byte[] fields = (body + "\u0001").getBytes(StandardCharsets.US_ASCII);
        SessionCodec.encodeOutHeader(buffer, offset, owner, flags, 0, MSG_TYPE_NEWS);
        buffer.putBytes(offset + SessionCodec.OUT_HEADER_LENGTH, fields);
        return SessionCodec.OUT_HEADER_LENGTH + fields.length;
    }

    /** A well-behaved gateway: the link, its rings, and what its ring brought (session records, numbers, events). */
    private static final class Gateway implements AutoCloseable {
        final InboundCommandRing inbound = new InboundCommandRing(1 << 16);
        final OutboundEventRing outbound = new OutboundEventRing(1 << 20, new BackoffIdleStrategy());
        final ClusterEngineLink link;
        /** Each: type (0: an event), the cluster's number (0: none), bytes (session records), summary (events). */
        final List<Object[]> records = new CopyOnWriteArrayList<>();
        private final List<String> events = new CopyOnWriteArrayList<>();
        private final UnsafeBuffer request = new UnsafeBuffer(new byte[1024]);
        private long number;
        private final TracedEventSink sink = new TracedEventSink() {
            @Override
            public void onNumber(long seqNum) {
                number = seqNum;
            }

            @Override
            public void onEvent(ExecutionEvent event, CommandTrace trace) {
                String summary = event.owner() + " " + event.type() + " " + event.lastQuantity();
                events.add(summary);
                records.add(new Object[] {0, number, null, summary});
                number = 0;
            }

            @Override
            public void onSessionRecord(int type, DirectBuffer buffer, int offset, int length) {
                byte[] bytes = new byte[length];
                buffer.getBytes(offset, bytes);
                records.add(new Object[] {type, number, bytes, null});
                number = 0;
            }
        };

        Gateway(TestCluster cluster, int id) {
            link = new ClusterEngineLink(cluster.linkSettings(id, 1, 2, 3), inbound, outbound, 2);
            link.connect(StoredOrigins.NONE);
            link.start(-1);
        }

        /** A Logon of {@code owner}'s client with the MsgSeqNum it sends next ({@code logonSeqNum}). */
        void offerClaim(int owner, long logonSeqNum) {
            int length = SessionCodec.encodeClaim(request, 0, owner, logonSeqNum, false, 0);
            assertTrue(inbound.offerRecord(SessionCodec.CLAIM, request, 0, length));
        }

        /** Logs the sessions on (the clients' Logon numbered {@code logonSeqNum}) and waits for the grants. */
        void claim(long logonSeqNum, int... owners) throws InterruptedException {
            int before = count(SessionCodec.GRANTED);
            for (int owner : owners) {
                offerClaim(owner, logonSeqNum);
            }
            await(() -> count(SessionCodec.GRANTED) >= before + owners.length, "grants of " + owners.length);
        }

        void release(int owner) {
            int length = SessionCodec.encodeOwner(request, 0, owner);
            assertTrue(inbound.offerRecord(SessionCodec.RELEASE, request, 0, length));
        }

        void out(int owner, String body) {
            byte[] fields = (body + "\u0001").getBytes(StandardCharsets.US_ASCII);
            SessionCodec.encodeOutHeader(request, 0, owner, 0, 0, MSG_TYPE_NEWS);
            request.putBytes(SessionCodec.OUT_HEADER_LENGTH, fields);
            assertTrue(inbound.offerRecord(SessionCodec.OUT, request, 0, SessionCodec.OUT_HEADER_LENGTH
                + fields.length));
        }

        void resend(int owner, long begin) {
            int length = SessionCodec.encodeResend(request, 0, owner, begin, 0);
            assertTrue(inbound.offerRecord(SessionCodec.RESEND, request, 0, length));
        }

        void poll() {
            outbound.poll(sink, 1000);
        }

        int count(int type) {
            poll();
            return (int) records.stream().filter(record -> (int) record[0] == type).count();
        }

        /** The last record of this type (its bytes), or null. */
        DirectBuffer recordOf(int type) {
            poll();
            for (int i = records.size() - 1; i >= 0; i--) {
                if ((int) records.get(i)[0] == type) {
                    return new UnsafeBuffer((byte[]) records.get(i)[2]);
                }
            }
            return null;
        }

        void awaitRecord(int type) throws InterruptedException {
            await(() -> count(type) > 0, "a record of type " + type);
        }

        /** The number the cluster gave the next record of this type (0: an event) to arrive. */
        long awaitNumbered(int type) throws InterruptedException {
            long[] found = {0};
            await(() -> {
                poll();
                for (Object[] record : records) {
                    if ((int) record[0] == type && (long) record[1] != 0) {
                        found[0] = (long) record[1];
                        records.remove(record);
                        return true;
                    }
                }
                return false;
            }, "a numbered record of type " + type);
            return found[0];
        }

        void awaitEvents(Predicate<String> wanted) throws InterruptedException {
            await(() -> {
                poll();
                return events.stream().anyMatch(wanted);
            }, "an event");
        }

        /** The resend's answers so far: "number gap", "number body" (an OUT), "number fill qty" (an event). */
        List<String> resent() {
            poll();
            return records.stream().filter(record -> (int) record[0] == SessionCodec.RESENT).map(record -> {
                UnsafeBuffer bytes = new UnsafeBuffer((byte[]) record[2]);
                long seqNum = SessionCodec.resentSeqNum(bytes, 0);
                int at = SessionCodec.RESENT_HEADER_LENGTH;
                return switch (SessionCodec.resentKind(bytes, 0)) {
                    case SessionCodec.KIND_OUT -> seqNum + " " + bytes.getStringWithoutLengthAscii(
                        at + SessionCodec.OUT_HEADER_LENGTH, bytes.capacity() - at - SessionCodec.OUT_HEADER_LENGTH - 1);
                    case SessionCodec.KIND_EVENT -> {
                        ExecutionEvent event = new ExecutionEvent();
                        io.fixmatch.engine.codec.EventCodec.decode(bytes, at, event);
                        yield seqNum + " " + (event.lastQuantity() > 0 ? "fill " + event.lastQuantity()
                            : event.type().name().toLowerCase());
                    }
                    default -> seqNum + " gap";
                };
            }).toList();
        }

        private void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!condition.getAsBoolean()) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("timed out waiting for " + what + "; records "
                        + records.stream().map(record -> record[0] + "/" + record[1]).toList());
                }
                Thread.sleep(2);
            }
        }

        @Override
        public void close() {
            link.close();
        }
    }

}
