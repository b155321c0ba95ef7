package io.fixmatch.fix.marketdata;

import io.fixmatch.engine.api.Side;
import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionTransport;
import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Market data over FIX for the sessions of one gateway thread (docs/FIX.md "Market data"). It keeps its own book of
 * price levels for every symbol from the engine's market-data records (which every gateway's outbound ring carries,
 * after the execution reports of the command that caused them), answers MarketDataRequests (35=V) with a
 * snapshot (35=W) per symbol or a reject (35=Y), and after each command sends every subscription whose symbols it
 * touched one incremental refresh (35=X): its trades, then the difference between the levels the client holds and
 * the book's top levels now.
 *
 * <p>A slow subscriber never holds anyone up: when its connection holds more than {@code maxPendingBytes} unsent,
 * it is behind: its changed symbols are only marked stale (conflated per level: no queue grows) and its trades are
 * not sent; once its connection is back under half that, each stale symbol gets one X with the current value of
 * every level that differs from what the client holds. The engine never waits: it only ever writes its records to
 * the ring, which this thread drains whatever the sockets do.
 *
 * <p>Market data messages are numbered like every message but not stored: a resend of their numbers is a gap fill.
 * Subscriptions end with the connection. One thread (the gateway's) owns all of it; allocation-free per update.
 */
public final class MarketDataFeed {
    private static final Logger LOG = LoggerFactory.getLogger(MarketDataFeed.class);
    /** Live subscriptions a session may hold at once; more are refused (35=Y, 281=2). */
    static final int MAX_SUBSCRIPTIONS_PER_SESSION = 64;
    private static final Side[] SIDES = {Side.BUY, Side.SELL};

    private final SymbolTable symbols;
    private final MarketDataSettings settings;
    private final LevelBooks books;
    private final MarketDataCounters counters = new MarketDataCounters();
    private final SubscriptionRegistry registry;
    private final MarketDataRequest request;
    private final SnapshotBody snapshot;
    private final IncrementalBody update;
    private final RequestRejectBody reject = new RequestRejectBody();
    private final List<Subscription> behind = new ArrayList<>();
    private long nowMs;

    /** @param maxMessageSize the sessions' largest message: an X holds as many entries as fit in one */
    public MarketDataFeed(SymbolTable symbols, int symbolCount, MarketDataSettings settings, int maxMessageSize) {
        this.symbols = symbols;
        this.settings = settings;
        this.books = new LevelBooks(symbolCount);
        this.registry = new SubscriptionRegistry(symbolCount, counters);
        this.request = new MarketDataRequest(symbols, symbolCount, settings.maxDepth());
        this.snapshot = new SnapshotBody(symbols);
        int longestSymbol = 0;
        for (int id = 0; id < symbolCount; id++) {
            longestSymbol = Math.max(longestSymbol, symbols.name(id).length);
        }
        this.update = new IncrementalBody(symbols, IncrementalBody.entriesPerMessage(maxMessageSize, longestSymbol));
    }

    /** Any thread: what this feed did. */
    public MarketDataCounters counters() {
        return counters;
    }

    /** Before the gateway starts: the indicative uncross of a symbol the recovered engine has in a call. */
    public void seedIndicative(int symbolId, long price, long volume) {
        books.indicative.set(symbolId, price, volume);
    }

    /** Before the gateway starts: a resting order of the recovered books. */
    public void seed(int symbolId, Side side, long price, long quantity) {
        books.seed(symbolId, side, price, quantity);
    }

    /** A MarketDataRequest of one of this gateway's sessions, in its turn. */
    public void onRequest(FixSession session, FixMessage message, long wallClockMs) {
        nowMs = wallClockMs;
        if (!request.read(message, settings.indicativeFor(session.config().clientCompId()))) {
            refuse(session, message, request.rejectReason(), request.rejectText());
            return;
        }
        int idField = message.indexOf(FixTags.MD_REQ_ID);
        Subscription live = registry.find(session, message.buffer(), message.valueStartAt(idField),
            message.valueLengthAt(idField));
        if (request.type() == MarketDataRequest.UNSUBSCRIBE) {
            if (live == null) {
                refuse(session, message, RequestRejectBody.NO_REASON, "no subscription with MDReqID "
                    + message.stringValue(FixTags.MD_REQ_ID) + " to unsubscribe");
            } else {
                unsubscribe(live);
            }
            return;
        }
        if (live != null) {
            refuse(session, message, RequestRejectBody.DUPLICATE_MD_REQ_ID, "MDReqID "
                + message.stringValue(FixTags.MD_REQ_ID) + " is already subscribed");
            return;
        }
        if (request.type() == MarketDataRequest.SUBSCRIBE
            && registry.countOf(session) >= MAX_SUBSCRIPTIONS_PER_SESSION) {
            refuse(session, message, RequestRejectBody.INSUFFICIENT_BANDWIDTH, "at most "
                + MAX_SUBSCRIPTIONS_PER_SESSION + " subscriptions per session");
            return;
        }
        byte[] mdReqId = Arrays.copyOfRange(message.buffer(), message.valueStartAt(idField),
            message.valueStartAt(idField) + message.valueLengthAt(idField));
        Subscription subscription = new Subscription(session, mdReqId, request.symbolIds(), request.depth(),
            request.bids(), request.offers(), request.trades(), request.indicative());
        for (int slot = 0; slot < subscription.symbols.length; slot++) {
            sendSnapshot(subscription, slot);
        }
        if (request.type() == MarketDataRequest.SUBSCRIBE) {
            registry.add(subscription);
            LOG.info("{}: market data subscription {}: {} symbols, depth {}{}{}{}{}", session.name(),
                message.stringValue(FixTags.MD_REQ_ID), subscription.symbols.length, subscription.depth,
                subscription.bids ? ", bids" : "", subscription.offers ? ", offers" : "",
                subscription.trades ? ", trades" : "", subscription.indicative ? ", indicative" : "");
        }
    }

    /** The session's connection went: its subscriptions end. */
    public void onDisconnected(FixSession session) {
        if (!registry.isEmpty()) {
            registry.removeAll(session);
            behind.removeIf(subscription -> subscription.session == session);
        }
    }

    /** One record of the engine's market data, from the outbound ring. */
    public void onMarketData(DirectBuffer buffer, int offset, int length, long wallClockMs) {
        nowMs = wallClockMs;
        if (books.apply(buffer, offset, length)) {
            return; // the command's changes go on in the next record
        }
        for (int i = 0; i < books.touchedCount(); i++) {
            int symbolId = books.touchedSymbol(i);
            for (int s = 0; s < registry.count(symbolId); s++) {
                publish(registry.subscription(symbolId, s), registry.slot(symbolId, s), symbolId);
            }
        }
        books.commandPublished();
    }

    /**
     * Once per duty cycle: a subscription that was behind and whose connection is back under half the threshold gets
     * each stale symbol's levels as they are now. Returns the subscriptions that caught up.
     */
    public int catchUp(long wallClockMs) {
        if (behind.isEmpty()) {
            return 0;
        }
        nowMs = wallClockMs;
        int caughtUp = 0;
        for (int i = behind.size() - 1; i >= 0; i--) {
            Subscription subscription = behind.get(i);
            SessionTransport transport = subscription.session.transport();
            if (transport == null || transport.queuedBytes() > settings.maxPendingBytes() / 2) {
                continue;
            }
            behind.remove(i);
            subscription.behind(false);
            for (int slot = 0; slot < subscription.symbols.length; slot++) {
                if (subscription.isStale(slot)) {
                    subscription.stale(slot, false);
                    sendDifferences(subscription, slot);
                }
            }
            counters.add(MarketDataCounters.CATCH_UPS, 1);
            caughtUp++;
        }
        return caughtUp;
    }

    /** The command touched the subscription's symbol in {@code slot}: an X now, or stale if behind. */
    private void publish(Subscription subscription, int slot, int symbolId) {
        if (!subscription.isBehind()) {
            SessionTransport transport = subscription.session.transport();
            if (transport == null) {
                return; // disconnecting: its subscriptions end with the connection
            }
            if (transport.queuedBytes() > settings.maxPendingBytes()) {
                subscription.behind(true);
                behind.add(subscription);
            }
        }
        if (subscription.isBehind()) {
            subscription.stale(slot, true);
            counters.add(MarketDataCounters.CONFLATED, 1);
            if (subscription.trades) {
                counters.add(MarketDataCounters.TRADES_NOT_SENT, tradesOf(symbolId));
            }
            return;
        }
        update.start(subscription.mdReqId());
        if (subscription.trades) {
            for (int t = 0; t < books.tradeCount(); t++) {
                if (books.tradeSymbol(t) == symbolId) {
                    add(subscription, IncrementalBody.NEW, IncrementalBody.TRADE, symbolId, books.tradePrice(t),
                        books.tradeQuantity(t));
                }
            }
        }
        for (Side side : SIDES) {
            if (subscription.wants(side) && books.firstChanged(symbolId, side) < subscription.depth) {
                diff(subscription, slot, side);
            }
        }
        indicativeDiff(subscription, slot);
        sendUpdate(subscription);
    }

    /** One X with every level of the symbol that differs from what the client holds (after a catch-up). */
    private void sendDifferences(Subscription subscription, int slot) {
        update.start(subscription.mdReqId());
        for (Side side : SIDES) {
            if (subscription.wants(side)) {
                diff(subscription, slot, side);
            }
        }
        indicativeDiff(subscription, slot);
        sendUpdate(subscription);
    }

    /**
     * The entries that turn the levels the client holds into the book's top {@code depth} levels: a merge of two
     * lists sorted best first. A level in both with another quantity is a change, one only in the book new, one only
     * in the client's a delete (it went, or fell below the depth).
     */
    private void diff(Subscription subscription, int slot, Side side) {
        int symbolId = subscription.symbols[slot];
        LevelBookSide book = books.side(symbolId, side);
        char type = side == Side.BUY ? IncrementalBody.BID : IncrementalBody.OFFER;
        int now = Math.min(subscription.depth, book.count());
        int held = subscription.sentCount(slot, side);
        int i = 0;
        int j = 0;
        while (i < now || j < held) {
            if (j == held || (i < now && book.isBetter(book.price(i), subscription.sentPrice(slot, side, j)))) {
                add(subscription, IncrementalBody.NEW, type, symbolId, book.price(i), book.quantity(i));
                i++;
            } else if (i == now || book.isBetter(subscription.sentPrice(slot, side, j), book.price(i))) {
                add(subscription, IncrementalBody.DELETE, type, symbolId, subscription.sentPrice(slot, side, j), 0);
                j++;
            } else {
                if (book.quantity(i) != subscription.sentQuantity(slot, side, j)) {
                    add(subscription, IncrementalBody.CHANGE, type, symbolId, book.price(i), book.quantity(i));
                }
                i++;
                j++;
            }
        }
        subscription.sent(slot, side, book, now);
    }

    /**
     * The call's indicative uncross as the client should hold it (269=Q, if asked for): new when a call first has
     * one, a change when price or volume moved, a delete when it has none any more (no crossing interest, or the
     * call ended).
     */
    private void indicativeDiff(Subscription subscription, int slot) {
        if (!subscription.indicative) {
            return;
        }
        int symbolId = subscription.symbols[slot];
        long price = books.indicative.price(symbolId);
        long volume = books.indicative.volume(symbolId);
        long heldPrice = subscription.sentIndicative.price(slot);
        long heldVolume = subscription.sentIndicative.volume(slot);
        if (volume == 0 && heldVolume != 0) {
            add(subscription, IncrementalBody.DELETE, IncrementalBody.INDICATIVE, symbolId, heldPrice, 0);
        } else if (volume != 0 && heldVolume == 0) {
            add(subscription, IncrementalBody.NEW, IncrementalBody.INDICATIVE, symbolId, price, volume);
        } else if (volume != 0 && (price != heldPrice || volume != heldVolume)) {
            add(subscription, IncrementalBody.CHANGE, IncrementalBody.INDICATIVE, symbolId, price, volume);
        }
        subscription.sentIndicative.set(slot, price, volume);
    }

    /** Adds an entry to the subscription's X; a full X is sent and the next entries start another. */
    private void add(Subscription subscription, char action, char type, int symbolId, long price, long quantity) {
        if (update.isFull()) {
            sendUpdate(subscription);
            update.start(subscription.mdReqId());
        }
        update.add(action, type, symbolId, price, quantity);
    }

    private void sendUpdate(Subscription subscription) {
        if (!update.isEmpty() && subscription.session.sendUnstored(MsgTypes.MARKET_DATA_INCREMENTAL, update, nowMs)) {
            counters.add(MarketDataCounters.UPDATES, 1);
        }
        update.clear();
    }

    private void sendSnapshot(Subscription subscription, int slot) {
        int symbolId = subscription.symbols[slot];
        LevelBookSide bids = books.side(symbolId, Side.BUY);
        LevelBookSide offers = books.side(symbolId, Side.SELL);
        snapshot.of(subscription.mdReqId(), symbolId, subscription.bids ? bids : null,
            subscription.offers ? offers : null, subscription.depth);
        long indicativeVolume = subscription.indicative ? books.indicative.volume(symbolId) : 0;
        long indicativePrice = indicativeVolume == 0 ? 0 : books.indicative.price(symbolId);
        snapshot.indicative(indicativePrice, indicativeVolume);
        if (subscription.session.sendUnstored(MsgTypes.MARKET_DATA_SNAPSHOT, snapshot, nowMs)) {
            counters.add(MarketDataCounters.SNAPSHOTS, 1);
        }
        subscription.sent(slot, Side.BUY, bids, snapshot.bidCount());
        subscription.sent(slot, Side.SELL, offers, snapshot.offerCount());
        subscription.sentIndicative.set(slot, indicativePrice, indicativeVolume);
    }

    private void unsubscribe(Subscription subscription) {
        registry.remove(subscription);
        behind.remove(subscription);
        LOG.info("{}: market data subscription {} ended", subscription.session.name(),
            new String(subscription.mdReqId(), java.nio.charset.StandardCharsets.US_ASCII));
    }

    private void refuse(FixSession session, FixMessage message, char reason, String text) {
        LOG.info("{}: MarketDataRequest {} refused: {}", session.name(), message.stringValue(FixTags.MD_REQ_ID), text);
        if (session.sendUnstored(MsgTypes.MARKET_DATA_REQUEST_REJECT, reject.of(message, reason, text), nowMs)) {
            counters.add(MarketDataCounters.REJECTS, 1);
        }
    }

    private int tradesOf(int symbolId) {
        int count = 0;
        for (int t = 0; t < books.tradeCount(); t++) {
            if (books.tradeSymbol(t) == symbolId) {
                count++;
            }
        }
        return count;
    }
}
