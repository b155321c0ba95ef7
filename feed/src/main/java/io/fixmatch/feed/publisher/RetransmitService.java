package io.fixmatch.feed.publisher;

import io.fixmatch.feed.codec.Datagram;
import io.fixmatch.feed.codec.FeedMessageWriter;
import io.fixmatch.feed.sbe.RejectReason;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.HashMap;
import java.util.Map;

/**
 * The retransmission service (docs/FEED.md): a UDP socket taking MoldUDP64 requests (session, first number, count)
 * and answering each from the {@link MessageHistory} with the stream's own datagrams, to the requester's address only.
 * Refused, with a {@code RetransmitReject} datagram (sequence number 0): a count of 0 or above
 * {@code maxMessagesPerRequest} (TOO_MANY), a range not all held (OUT_OF_RANGE: older than the history, or not yet
 * published), a requester over its {@code maxMessagesPerClientPerSecond} (RATE_LIMITED), another session. Runs on the
 * publisher's thread, between its other work: a request costs the stream at most one request's datagrams.
 */
final class RetransmitService implements AutoCloseable {
    private final DatagramChannel channel;
    private final MessageHistory history;
    private final FeedSettings settings;
    private final FeedCounters counters;
    private final byte[] session;
    private final ByteBuffer request = ByteBuffer.allocateDirect(Datagram.HEADER_LENGTH + 64);
    private final UnsafeBuffer requestView = new UnsafeBuffer(request);
    private final ByteBuffer answer;
    private final UnsafeBuffer answerView;
    private final FeedMessageWriter writer = new FeedMessageWriter();
    /** Per requester: the second its budget is for, and what is left of it (a few clients: a map is fine here). */
    private final Map<SocketAddress, long[]> budgets = new HashMap<>();

    RetransmitService(FeedSettings settings, MessageHistory history, FeedCounters counters, byte[] session) {
        this.settings = settings;
        this.history = history;
        this.counters = counters;
        this.session = session;
        this.answer = ByteBuffer.allocateDirect(settings.maxDatagramBytes());
        this.answerView = new UnsafeBuffer(answer);
        try {
            channel = DatagramChannel.open(StandardProtocolFamily.INET);
            channel.configureBlocking(false);
            channel.bind(new InetSocketAddress(settings.retransmitHost(), settings.retransmitPort()));
            counters.retransmitPort = ((InetSocketAddress) channel.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new UncheckedIOException("the feed's retransmission service cannot listen on "
                + settings.retransmitHost() + ":" + settings.retransmitPort(), e);
        }
    }

    int port() {
        return counters.retransmitPort;
    }

    /** Answers the requests waiting (a few per call); returns how many. */
    int poll(long nowNanos) {
        int served = 0;
        for (int i = 0; i < 8; i++) {
            request.clear();
            SocketAddress from;
            try {
                from = channel.receive(request);
            } catch (IOException e) {
                return served;
            }
            if (from == null) {
                return served;
            }
            served++;
            if (request.position() >= Datagram.HEADER_LENGTH) {
                answer(from, Datagram.sequence(requestView, 0), Datagram.count(requestView, 0), nowNanos);
            }
        }
        return served;
    }

    private void answer(SocketAddress to, long from, int count, long nowNanos) {
        counters.retransmitRequests++;
        if (!Datagram.sessionIs(requestView, 0, session)) {
            reject(to, from, count, RejectReason.WRONG_SESSION);
        } else if (count == 0 || count > settings.maxMessagesPerRequest()) {
            reject(to, from, count, RejectReason.TOO_MANY);
        } else if (from < history.first() || from + count - 1 > history.last()) {
            reject(to, from, count, RejectReason.OUT_OF_RANGE);
        } else if (!withinBudget(to, count, nowNanos)) {
            reject(to, from, count, RejectReason.RATE_LIMITED);
        } else {
            send(to, from, count);
        }
    }

    private boolean withinBudget(SocketAddress client, int count, long nowNanos) {
        long second = nowNanos / 1_000_000_000L;
        long[] budget = budgets.computeIfAbsent(client, c -> new long[2]);
        if (budget[0] != second) {
            budget[0] = second;
            budget[1] = settings.maxMessagesPerClientPerSecond();
        }
        if (budget[1] < count) {
            return false;
        }
        budget[1] -= count;
        return true;
    }

    /** The messages from..from+count-1, as many to a datagram as fit. */
    private void send(SocketAddress to, long from, int count) {
        int at = Datagram.HEADER_LENGTH;
        long datagramFirst = from;
        int inDatagram = 0;
        for (long sequence = from; sequence < from + count; sequence++) {
            if (at + Datagram.MESSAGE_LENGTH_BYTES + MessageHistory.SLOT_BYTES > answer.capacity()) {
                sendAnswer(to, datagramFirst, inDatagram, at);
                at = Datagram.HEADER_LENGTH;
                datagramFirst = sequence;
                inDatagram = 0;
            }
            int length = history.copy(sequence, answerView, at + Datagram.MESSAGE_LENGTH_BYTES);
            Datagram.putMessageLength(answerView, at, length);
            at += Datagram.MESSAGE_LENGTH_BYTES + length;
            inDatagram++;
        }
        sendAnswer(to, datagramFirst, inDatagram, at);
        counters.retransmittedMessages += count;
    }

    private void sendAnswer(SocketAddress to, long first, int count, int length) {
        Datagram.putHeader(answerView, 0, session, first, count);
        answer.clear().limit(length);
        try {
            channel.send(answer, to);
        } catch (IOException e) {
            counters.sendFailures++;
        }
    }

    private void reject(SocketAddress to, long from, int count, RejectReason reason) {
        counters.retransmitRejects++;
        int length = writer.reject(answerView, Datagram.HEADER_LENGTH + Datagram.MESSAGE_LENGTH_BYTES, from, count,
            reason, history.first(), history.last());
        Datagram.putMessageLength(answerView, Datagram.HEADER_LENGTH, length);
        sendAnswer(to, 0, 1, Datagram.HEADER_LENGTH + Datagram.MESSAGE_LENGTH_BYTES + length);
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing
        }
    }
}
