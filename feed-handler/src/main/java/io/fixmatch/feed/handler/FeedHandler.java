package io.fixmatch.feed.handler;

import io.fixmatch.feed.codec.BookUpdater;
import io.fixmatch.feed.codec.Datagram;
import io.fixmatch.feed.codec.FeedMessageReader;
import io.fixmatch.feed.codec.SymbolBook;
import io.fixmatch.feed.sbe.BookSnapshotDecoder;
import io.fixmatch.feed.sbe.BooleanType;
import io.fixmatch.feed.sbe.MessageHeaderDecoder;
import io.fixmatch.feed.sbe.RetransmitRejectDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The reference handler of fixmatch's binary market data feed (docs/FEED.md), the way an exchange ships one: it joins
 * late through the snapshot channel (the books of one whole cycle, as of its sequence number, then the stream from the
 * next number, with what it buffered meanwhile), applies the stream in sequence order, finds gaps (a datagram or a
 * heartbeat beyond the next number) and fills them by asking the retransmission service, or takes a snapshot again
 * when the gap is too wide, refused or not answered; duplicates are passed over. Keeps every symbol's book of levels,
 * phase, halt, indicative uncross and last trade, and counts its health ({@link FeedHealth}).
 *
 * <p>{@link #poll()} does the work without blocking (the caller's loop), or {@link #start()} runs it on a thread of its
 * own. Both hold the handler's lock, as do the queries, so any thread may look at the books.
 */
public final class FeedHandler implements AutoCloseable {
    private static final int MAX_PENDING = 1 << 20;
    private static final int RETRANSMIT_TRIES = 5;
    private static final long WAIT_MILLIS = 20;

    private final HandlerSettings settings;
    private final byte[] session;
    private final DatagramChannel streamChannel;
    private final DatagramChannel snapshotChannel;
    private final DatagramChannel retransmitChannel;
    private final ByteBuffer received = ByteBuffer.allocateDirect(64 * 1024);
    private final UnsafeBuffer view = new UnsafeBuffer(received);
    private final ByteBuffer request = ByteBuffer.allocateDirect(Datagram.HEADER_LENGTH);
    private final UnsafeBuffer requestView = new UnsafeBuffer(request);
    private final UnsafeBuffer pendingView = new UnsafeBuffer(new byte[0]);
    private final FeedMessageReader reader = new FeedMessageReader();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final BookSnapshotDecoder snapshot = new BookSnapshotDecoder();
    private final RetransmitRejectDecoder reject = new RetransmitRejectDecoder();
    private final FeedHealth health = new FeedHealth();
    private final List<Recovery> recoveries = Collections.synchronizedList(new ArrayList<>());
    /** Messages above the next number (all of them while not synced), by number: their bytes. */
    private final TreeMap<Long, byte[]> pending = new TreeMap<>();
    private MessageObserver observer = (sequence, symbolId, buffer, offset, length) -> { };
    private SymbolBook[] live = new SymbolBook[0];
    private final BookUpdater books = new BookUpdater(live);
    private String[] names = new String[0];
    private int[] priceScales = new int[0];
    private boolean synced;
    /** The next number to apply (synced). */
    private long expected;
    private boolean requesting;
    private long requestFrom;
    private long requestCount;
    private long requestSentNanos;
    private int requestTries;
    private boolean fromRetransmission;
    /**
     * The snapshot cycle being put together: its number (-1: none), its books and each symbol's last part received
     * (0: none yet).
     */
    private long cycle = -1;
    private boolean cycleBroken;
    private long cycleLastSequence;
    private SymbolBook[] staging;
    private String[] stagingNames;
    private int[] stagingScales;
    private int[] nextPart;
    private int complete;
    private volatile boolean running;
    private Thread thread;

    public FeedHandler(HandlerSettings settings) {
        this.settings = settings;
        this.session = Datagram.session(settings.session());
        try {
            streamChannel = listen(settings.stream(), settings.interfaceName());
            snapshotChannel = listen(settings.snapshots(), settings.interfaceName());
            retransmitChannel = DatagramChannel.open(StandardProtocolFamily.INET);
            retransmitChannel.configureBlocking(false);
            retransmitChannel.bind(new InetSocketAddress(settings.stream().getAddress().isMulticastAddress()
                ? new InetSocketAddress(0).getAddress() : settings.stream().getAddress(), 0));
        } catch (IOException e) {
            throw new UncheckedIOException("the feed handler cannot listen on " + settings.stream() + " and "
                + settings.snapshots(), e);
        }
    }

    private static DatagramChannel listen(InetSocketAddress address, String interfaceName) throws IOException {
        DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.SO_RCVBUF, 8 * 1024 * 1024);
        if (address.getAddress().isMulticastAddress()) {
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(new InetSocketAddress(address.getPort()));
            channel.join(address.getAddress(), multicastInterface(interfaceName));
        } else {
            channel.bind(address);
        }
        return channel;
    }

    private static NetworkInterface multicastInterface(String name) throws SocketException {
        if (name != null) {
            NetworkInterface named = NetworkInterface.getByName(name);
            if (named == null) {
                throw new SocketException("no network interface " + name);
            }
            return named;
        }
        for (Enumeration<NetworkInterface> all = NetworkInterface.getNetworkInterfaces(); all.hasMoreElements(); ) {
            NetworkInterface candidate = all.nextElement();
            if (candidate.isUp() && candidate.supportsMulticast() && !candidate.isLoopback()) {
                return candidate;
            }
        }
        return NetworkInterface.getByName("lo");
    }

    /** Before {@link #start()}: told of every message applied, on the handler's thread. */
    public synchronized void observer(MessageObserver messageObserver) {
        observer = messageObserver;
    }

    /**
     * Runs {@link #poll()} on a thread of its own until {@link #close()}: when a poll found nothing it waits in the
     * kernel for a datagram on any of its sockets (epoll), at most {@value #WAIT_MILLIS} ms (a retransmission request's
     * timeout is looked at then), so an idle handler costs no CPU. (Spinning on {@link #poll()} instead costs three
     * system calls a turn: a caller that wants it runs its own loop.)
     */
    public void start() {
        Selector selector;
        try {
            selector = Selector.open();
            register(selector);
        } catch (IOException e) {
            throw new UncheckedIOException("the feed handler cannot wait on its sockets", e);
        }
        running = true;
        thread = new Thread(() -> {
            try (selector) {
                while (running) {
                    if (poll() == 0) {
                        selector.select(WAIT_MILLIS); // at once if a datagram came meanwhile
                        selector.selectedKeys().clear();
                    }
                }
            } catch (IOException | ClosedSelectorException e) {
                // closed
            }
        }, "feed-handler");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * For a caller's own event loop (many handlers on one thread, say): registers the handler's sockets for reading
     * with {@code selector}, each key's attachment this handler; {@link #poll()} the handlers whose keys are selected.
     */
    public void register(Selector selector) throws IOException {
        for (DatagramChannel channel : new DatagramChannel[] {streamChannel, snapshotChannel, retransmitChannel}) {
            channel.register(selector, SelectionKey.OP_READ, this);
        }
    }

    /** Reads what the sockets hold and acts on it; returns the datagrams read. Never blocks. */
    public synchronized int poll() {
        int work = 0;
        work += drain(streamChannel, false);
        fromRetransmission = true;
        try {
            work += drain(retransmitChannel, false);
        } finally {
            fromRetransmission = false;
        }
        work += drain(snapshotChannel, true);
        if (requesting && System.nanoTime() - requestSentNanos > TimeUnit.MILLISECONDS.toNanos(
            settings.retransmitTimeoutMs())) {
            health.retransmitTimeouts++;
            requesting = false;
            if (++requestTries >= RETRANSMIT_TRIES) {
                takeSnapshot();
            } else {
                askForGap();
            }
        }
        return work;
    }

    private int drain(DatagramChannel channel, boolean snapshots) {
        int datagrams = 0;
        while (datagrams < 64) {
            received.clear();
            try {
                if (channel.receive(received) == null) {
                    break;
                }
            } catch (IOException e) {
                break;
            }
            datagrams++;
            int length = received.position();
            if (length < Datagram.HEADER_LENGTH || !Datagram.sessionIs(view, 0, session)) {
                continue;
            }
            if (snapshots) {
                onSnapshotDatagram(length);
            } else {
                onStreamDatagram(length);
            }
        }
        return datagrams;
    }

    // --- the stream (and retransmissions) ---

    private void onStreamDatagram(int length) {
        long first = Datagram.sequence(view, 0);
        int count = Datagram.count(view, 0);
        if (first == 0) {
            onReject(length);
            return;
        }
        health.datagrams++;
        health.lastDatagramNanos = System.nanoTime();
        if (count == 0) {
            health.heartbeats++;
            seen(first - 1);
            if (synced && first > expected && !requesting) {
                gapFound();
            }
            return;
        }
        int at = Datagram.HEADER_LENGTH;
        for (int i = 0; i < count && at + Datagram.MESSAGE_LENGTH_BYTES <= length; i++) {
            int messageLength = Datagram.messageLength(view, at);
            int message = at + Datagram.MESSAGE_LENGTH_BYTES;
            if (message + messageLength > length) {
                break; // cut short: the rest is a gap
            }
            onMessage(first + i, view, message, messageLength);
            at = message + messageLength;
        }
        seen(first + count - 1);
    }

    private void seen(long sequence) {
        if (sequence > health.highestSeen) {
            health.highestSeen = sequence;
        }
    }

    private void onMessage(long sequence, DirectBuffer buffer, int offset, int length) {
        if (synced && sequence == expected) {
            apply(sequence, buffer, offset, length);
            applyPending();
            return;
        }
        if (synced && sequence < expected) {
            health.duplicates++;
            return;
        }
        if (pending.containsKey(sequence)) {
            health.duplicates++;
            return;
        }
        byte[] copy = new byte[length];
        buffer.getBytes(offset, copy);
        pending.put(sequence, copy);
        if (pending.size() > MAX_PENDING) {
            pending.pollFirstEntry();
        }
        if (synced && !requesting) {
            gapFound();
        }
    }

    private void apply(long sequence, DirectBuffer buffer, int offset, int length) {
        reader.read(buffer, offset, length, sequence, books);
        expected = sequence + 1;
        health.lastApplied = sequence;
        health.messagesApplied++;
        if (fromRetransmission) {
            health.retransmittedMessages++;
        }
        observer.applied(sequence, books.lastSymbol(), buffer, offset, length);
    }

    /** Applies the buffered messages that are next; asks for what is still missing below the rest. */
    private void applyPending() {
        while (!pending.isEmpty() && pending.firstKey() <= expected) {
            Map.Entry<Long, byte[]> next = pending.pollFirstEntry();
            if (next.getKey() == expected) {
                pendingView.wrap(next.getValue());
                apply(next.getKey(), pendingView, 0, next.getValue().length);
            }
        }
        if (requesting && expected >= requestFrom + requestCount) {
            requesting = false;
        }
        if (!pending.isEmpty() && !requesting) {
            gapFound();
        }
    }

    /** A gap: messages from the next number to the first one held (or the heartbeat's) are missing. */
    private void gapFound() {
        health.gaps++;
        requestTries = 0;
        askForGap();
    }

    private void askForGap() {
        long upTo = pending.isEmpty() ? health.highestSeen : pending.firstKey() - 1;
        long missing = upTo - expected + 1;
        if (missing <= 0) {
            return;
        }
        if (settings.retransmit() == null || missing > settings.tooFarBehind()) {
            takeSnapshot();
            return;
        }
        requestFrom = expected;
        requestCount = Math.min(missing, settings.maxPerRequest());
        Datagram.putHeader(requestView, 0, session, requestFrom, (int) requestCount);
        request.clear();
        try {
            retransmitChannel.send(request, settings.retransmit());
        } catch (IOException e) {
            // not answered: asked again after the timeout
        }
        requesting = true;
        requestSentNanos = System.nanoTime();
        health.retransmitRequests++;
        recoveries.add(new Recovery(Recovery.Kind.RETRANSMISSION, requestFrom, requestCount));
    }

    private void onReject(int length) {
        int at = Datagram.HEADER_LENGTH + Datagram.MESSAGE_LENGTH_BYTES;
        if (Datagram.count(view, 0) != 1 || length < at + MessageHeaderDecoder.ENCODED_LENGTH) {
            return;
        }
        header.wrap(view, at);
        if (header.templateId() != RetransmitRejectDecoder.TEMPLATE_ID) {
            return;
        }
        reject.wrap(view, at + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        health.retransmitRejects++;
        if (requesting && reject.fromSequence() == requestFrom) {
            requesting = false;
            takeSnapshot(); // what is missing is no longer held (or was refused): the books come from a snapshot
        }
    }

    /** The books are rebuilt from the next whole snapshot cycle; the stream is buffered meanwhile. */
    private void takeSnapshot() {
        synced = false;
        requesting = false;
        cycle = -1;
    }

    // --- the snapshot channel ---

    private void onSnapshotDatagram(int length) {
        int at = Datagram.HEADER_LENGTH + Datagram.MESSAGE_LENGTH_BYTES;
        if (synced || Datagram.count(view, 0) != 1 || length < at + MessageHeaderDecoder.ENCODED_LENGTH) {
            return;
        }
        header.wrap(view, at);
        if (header.templateId() != BookSnapshotDecoder.TEMPLATE_ID) {
            return;
        }
        snapshot.wrap(view, at + MessageHeaderDecoder.ENCODED_LENGTH, header.blockLength(), header.version());
        long number = snapshot.cycle();
        int symbols = snapshot.symbolCount();
        if (number != cycle) {
            cycle = number;
            cycleBroken = false;
            cycleLastSequence = snapshot.lastSequence();
            staging = new SymbolBook[symbols];
            stagingNames = new String[symbols];
            stagingScales = new int[symbols];
            nextPart = new int[symbols];
            complete = 0;
        }
        int symbolId = snapshot.symbolId();
        if (cycleBroken || symbolId < 0 || symbolId >= staging.length
            || snapshot.lastSequence() != cycleLastSequence) {
            cycleBroken = true;
            return;
        }
        int part = snapshot.part();
        if (part != nextPart[symbolId] + 1) {
            cycleBroken = true; // a part lost or repeated: the next cycle, whole
            return;
        }
        SymbolBook book = staging[symbolId];
        if (part == 1) {
            book = new SymbolBook(symbolId);
            staging[symbolId] = book;
            book.phase = snapshot.phase();
            book.halted = snapshot.halted() == BooleanType.TRUE;
            stagingScales[symbolId] = snapshot.priceScale();
            book.indicativePrice = snapshot.indicativePrice();
            book.indicativeVolume = snapshot.indicativeVolume();
            book.lastTradePrice = snapshot.lastTradePrice();
        }
        int parts = snapshot.parts();
        for (BookSnapshotDecoder.LevelsDecoder level : snapshot.levels()) {
            book.side(level.side()).set(level.price(), level.quantity());
        }
        String name = snapshot.symbolName();
        stagingNames[symbolId] = name;
        nextPart[symbolId] = part;
        if (part == parts) {
            complete++;
            if (complete == staging.length) {
                install();
            }
        }
    }

    /** A whole cycle: its books become the handler's, and the stream goes on from the number after it. */
    private void install() {
        live = staging;
        books.books(live);
        names = stagingNames;
        priceScales = stagingScales;
        expected = cycleLastSequence + 1;
        health.lastApplied = cycleLastSequence;
        seen(cycleLastSequence);
        synced = true;
        cycle = -1;
        health.snapshotRecoveries++;
        recoveries.add(new Recovery(Recovery.Kind.SNAPSHOT, expected, 0));
        observer.installed(cycleLastSequence, live);
        while (!pending.isEmpty() && pending.firstKey() < expected) {
            pending.pollFirstEntry();
        }
        applyPending();
    }

    // --- queries (any thread) ---

    /** Whether the handler holds books (it has taken a snapshot) and is not rebuilding them. */
    public synchronized boolean synced() {
        return synced;
    }

    public HandlerSettings settings() {
        return settings;
    }

    public FeedHealth health() {
        return health;
    }

    /** Every recovery made so far, in order. */
    public List<Recovery> recoveries() {
        synchronized (recoveries) {
            return List.copyOf(recoveries);
        }
    }

    /** The symbol's id, from the snapshots' names; -1 if not known (yet). */
    public synchronized int symbolId(String symbol) {
        for (int i = 0; i < names.length; i++) {
            if (symbol.equals(names[i])) {
                return i;
            }
        }
        return -1;
    }

    /** The symbols' names by id (from the snapshots). */
    public synchronized List<String> symbols() {
        return List.of(names);
    }

    public synchronized int priceScale(int symbolId) {
        return priceScales[symbolId];
    }

    /** The symbol's levels as text ({@link SymbolBook#levels()}); null if not known. */
    public synchronized String levels(String symbol) {
        int id = symbolId(symbol);
        return id < 0 ? null : live[id].levels();
    }

    /** The symbol's book, for reading under this handler's lock ({@code synchronized (handler)}), or null. */
    public synchronized SymbolBook book(int symbolId) {
        return symbolId >= 0 && symbolId < live.length ? live[symbolId] : null;
    }

    /** The local port the stream is read on (a unicast stream bound to port 0 gets one). */
    public int streamPort() {
        return port(streamChannel);
    }

    public int snapshotPort() {
        return port(snapshotChannel);
    }

    private static int port(DatagramChannel channel) {
        try {
            return ((InetSocketAddress) channel.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        running = false;
        if (thread != null) {
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (DatagramChannel channel : new DatagramChannel[] {streamChannel, snapshotChannel, retransmitChannel}) {
            try {
                channel.close();
            } catch (IOException e) {
                // closing
            }
        }
    }
}
