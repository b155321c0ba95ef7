package io.fixmatch.loadgen.flow;

import java.util.SplittableRandom;

/**
 * A seeded, reproducible volatile market, one request at a time: many passive orders around a mid price that
 * wanders, a high share of cancels and some replaces of them, and now and then an IOC order that takes out the best
 * level of our own resting orders on the other side, so it trades. The flow keeps its own book of what it has
 * resting and never lets it grow past a bound, so the server's books stay bounded however long the run.
 *
 * <p>Prices are integers of the symbols' price scale with a tick of one unit. The flow assumes it is alone in its
 * symbols' books (it trades with itself); another participant filling its orders shows up as errors.
 *
 * <p>Single-threaded (the sending thread); allocation-free after construction.
 */
public final class OrderFlow {
    /** Resting orders kept per symbol at most; beyond, the flow cancels instead of adding. */
    public static final int MAX_RESTING_PER_SYMBOL = 200;
    private static final int MIN_RESTING_PER_SYMBOL = 20;

    private final SplittableRandom random;
    private final int symbolCount;
    private final long[] mids;
    private final RestingOrders[] books;
    private long nextId = 1;

    // The request built by the last next() call.
    private RequestKind kind;
    private int symbol;
    private boolean buy;
    private long price;
    private long quantity;
    private long id;
    private long origId;
    /** For a replace: the price and quantity of the order it replaces. */
    private long oldPrice;
    private long oldQuantity;
    private final long[] consumedIds = new long[MAX_RESTING_PER_SYMBOL];
    private int consumedCount;

    public OrderFlow(long seed, int symbolCount, long startMid) {
        this.random = new SplittableRandom(seed);
        this.symbolCount = symbolCount;
        this.mids = new long[symbolCount];
        this.books = new RestingOrders[symbolCount];
        for (int i = 0; i < symbolCount; i++) {
            mids[i] = startMid;
            books[i] = new RestingOrders(MAX_RESTING_PER_SYMBOL);
        }
    }

    /** Builds the next request; read it through the accessors until the next call. */
    public RequestKind next() {
        symbol = random.nextInt(symbolCount);
        RestingOrders book = books[symbol];
        if (random.nextInt(8) == 0) {
            mids[symbol] = Math.max(1_000, mids[symbol] + (random.nextBoolean() ? 1 : -1));
        }
        consumedCount = 0;
        int dice = random.nextInt(100);
        if (book.size() < MIN_RESTING_PER_SYMBOL || (dice < 40 && book.size() < MAX_RESTING_PER_SYMBOL)) {
            newPassiveOrder(book);
        } else if (dice < 85 || book.size() >= MAX_RESTING_PER_SYMBOL) {
            cancel(book);
        } else if (dice < 95) {
            replace(book);
        } else if (!aggressive(book)) {
            newPassiveOrder(book);
        }
        return kind;
    }

    private void newPassiveOrder(RestingOrders book) {
        kind = RequestKind.NEW_ORDER;
        buy = random.nextBoolean();
        price = passivePrice(book, buy);
        quantity = 1 + random.nextInt(10) * 10L;
        id = nextId++;
        origId = 0;
        book.add(id, buy, price, quantity);
    }

    private void cancel(RestingOrders book) {
        kind = RequestKind.CANCEL;
        int slot = book.randomSlot(random);
        origId = book.id(slot);
        buy = book.isBuy(slot);
        price = book.price(slot);
        quantity = book.quantity(slot);
        id = nextId++;
        book.remove(slot);
    }

    /** A new price a few ticks from the old on the passive side, and a new quantity; the order stays passive. */
    private void replace(RestingOrders book) {
        kind = RequestKind.REPLACE;
        int slot = book.randomSlot(random);
        origId = book.id(slot);
        buy = book.isBuy(slot);
        oldPrice = book.price(slot);
        oldQuantity = book.quantity(slot);
        book.remove(slot);
        price = passivePrice(book, buy);
        quantity = 1 + random.nextInt(10) * 10L;
        id = nextId++;
        book.add(id, buy, price, quantity);
    }

    /** An IOC for exactly the quantity of our best level on a random side; false if that side is empty. */
    private boolean aggressive(RestingOrders book) {
        boolean takeAsks = random.nextBoolean();
        long best = book.bestPrice(!takeAsks);
        if (best == RestingOrders.NONE) {
            takeAsks = !takeAsks;
            best = book.bestPrice(!takeAsks);
            if (best == RestingOrders.NONE) {
                return false;
            }
        }
        kind = RequestKind.AGGRESSIVE;
        buy = takeAsks;
        price = best;
        quantity = 0;
        consumedCount = book.removeLevel(!takeAsks, best, consumedIds);
        for (int i = 0; i < consumedCount; i++) {
            quantity += book.lastRemovedQuantity(i);
        }
        id = nextId++;
        origId = 0;
        return true;
    }

    /** A price 1..8 ticks behind the mid on the order's side, never crossing our own opposite side. */
    private long passivePrice(RestingOrders book, boolean isBuy) {
        long offset = 1 + random.nextInt(8);
        long candidate = isBuy ? mids[symbol] - offset : mids[symbol] + offset;
        long opposite = book.bestPrice(!isBuy);
        if (opposite != RestingOrders.NONE) {
            candidate = isBuy ? Math.min(candidate, opposite - 1) : Math.max(candidate, opposite + 1);
        }
        return Math.max(1, candidate);
    }

    public RequestKind kind() { return kind; }
    public int symbol() { return symbol; }
    public boolean isBuy() { return buy; }
    public long price() { return price; }
    public long quantity() { return quantity; }
    /** The request's ClOrdID number. */
    public long id() { return id; }
    /** For cancel and replace: the ClOrdID number of the order they act on. */
    public long origId() { return origId; }

    /**
     * The price levels of the books the request changes (a market data message each, the flow being alone in its
     * books), the one whose change answers it first: a new order's or a cancel's level, a replace's new level then its
     * old one (one level when both are the same: the venue tells one change of a level per command), the level an
     * aggressive order takes out on the other side; none for a replace that changes neither price nor quantity (the
     * venue changes nothing then). As {@link LevelKey}s.
     */
    public int changedLevels() {
        if (kind != RequestKind.REPLACE) {
            return 1;
        }
        return oldPrice != price ? 2 : oldQuantity != quantity ? 1 : 0;
    }

    public long changedLevel(int index) {
        return switch (kind) {
            case NEW_ORDER, CANCEL -> LevelKey.of(symbol, buy, price);
            case REPLACE -> LevelKey.of(symbol, buy, index == 0 ? price : oldPrice);
            case AGGRESSIVE -> LevelKey.of(symbol, !buy, price);
        };
    }

    /** For an aggressive request: how many of our resting orders it takes out, and their ids. */
    public int consumedCount() {
        return consumedCount;
    }

    public long consumedId(int index) {
        return consumedIds[index];
    }

    public int restingCount(int symbolIndex) {
        return books[symbolIndex].size();
    }
}
