package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import quickfix.FieldNotFound;
import quickfix.Group;
import quickfix.Message;
import quickfix.field.MsgType;
import quickfix.field.Symbol;
import quickfix.fix44.MarketDataRequest;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The book a market data client rebuilds from MarketDataSnapshotFullRefresh (W) and MarketDataIncrementalRefresh (X)
 * alone, price-keyed, checking as it goes what every step must satisfy: a new level is not there yet, a changed or
 * deleted one is, no side holds more than the depth, and after every message the book is not crossed (each message
 * is the book after a whole command). Compared with the engine's book as the admin endpoint shows it.
 */
public final class MarketDataBook {
    private final int depth;
    /** Per symbol: bids (best first: descending) and offers (ascending), price -> total quantity. */
    private final Map<String, TreeMap<BigDecimal, Long>> bids = new HashMap<>();
    private final Map<String, TreeMap<BigDecimal, Long>> offers = new HashMap<>();
    private long tradedQuantity;
    private long trades;
    private long messages;

    public MarketDataBook(int depth) {
        this.depth = depth;
    }

    /** A MarketDataSnapshotFullRefresh (W) or MarketDataIncrementalRefresh (X), as QuickFIX/J received it. */
    public void apply(Message message) throws FieldNotFound {
        String type = message.getHeader().getString(MsgType.FIELD);
        if (type.equals("W")) {
            String symbol = message.getString(55);
            snapshot(symbol);
            for (Group entry : message.getGroups(268)) {
                snapshotEntry(symbol, entry.getChar(269), entry.getDecimal(270), entry.getDecimal(271)
                    .longValueExact());
            }
        } else {
            assertEquals("X", type, message.toString());
            for (Group entry : message.getGroups(268)) {
                update(entry.getChar(279), entry.getChar(269), entry.getString(55), entry.getDecimal(270),
                    entry.isSetField(271) ? entry.getDecimal(271).longValueExact() : null);
            }
        }
        messageDone();
    }

    /** A MarketDataRequest: {@code type} 0 snapshot, 1 subscribe, 2 unsubscribe; {@code depth} 0 the full book. */
    public static MarketDataRequest request(String id, char type, int depth, List<String> symbols,
                                            char... entryTypes) {
        MarketDataRequest request = new MarketDataRequest(new quickfix.field.MDReqID(id),
            new quickfix.field.SubscriptionRequestType(type), new quickfix.field.MarketDepth(depth));
        for (char entryType : entryTypes) {
            MarketDataRequest.NoMDEntryTypes group = new MarketDataRequest.NoMDEntryTypes();
            group.set(new quickfix.field.MDEntryType(entryType));
            request.addGroup(group);
        }
        for (String symbol : symbols) {
            MarketDataRequest.NoRelatedSym group = new MarketDataRequest.NoRelatedSym();
            group.set(new Symbol(symbol));
            request.addGroup(group);
        }
        return request;
    }

    /** A W: the symbol's levels are exactly these from now on. */
    void snapshot(String symbol) {
        side(symbol, '0').clear();
        side(symbol, '1').clear();
    }

    /** An entry of a W. */
    void snapshotEntry(String symbol, char type, BigDecimal price, long size) {
        assertTrue(type == '0' || type == '1', "W entry type " + type);
        assertTrue(size > 0, "W level with size " + size);
        TreeMap<BigDecimal, Long> side = side(symbol, type);
        assertTrue(side.put(price.stripTrailingZeros(), size) == null, "W lists " + price + " twice");
        assertTrue(side.size() <= depth, "W deeper than " + depth);
    }

    /** An entry of an X. */
    void update(char action, char type, String symbol, BigDecimal price, Long size) {
        if (type == '2') {
            assertEquals('0', action, "a trade is a new entry");
            tradedQuantity += size;
            trades++;
            return;
        }
        TreeMap<BigDecimal, Long> side = side(symbol, type);
        BigDecimal key = price.stripTrailingZeros();
        switch (action) {
            case '0' -> {
                assertTrue(size != null && size > 0, "new level " + key + " without a size");
                assertTrue(side.put(key, size) == null, "new level " + key + " of " + symbol + " already held");
            }
            case '1' -> {
                assertTrue(size != null && size > 0, "changed level " + key + " without a size");
                assertTrue(side.put(key, size) != null, "changed level " + key + " of " + symbol + " not held");
            }
            case '2' -> assertTrue(side.remove(key) != null, "deleted level " + key + " of " + symbol + " not held");
            default -> fail("MDUpdateAction " + action);
        }
    }

    /** After each whole message: no side deeper than the depth, the book not crossed. */
    void messageDone() {
        messages++;
        for (String symbol : bids.keySet()) {
            TreeMap<BigDecimal, Long> b = side(symbol, '0');
            TreeMap<BigDecimal, Long> o = side(symbol, '1');
            assertTrue(b.size() <= depth && o.size() <= depth, symbol + " deeper than " + depth + ": " + this);
            if (!b.isEmpty() && !o.isEmpty()) {
                assertTrue(b.firstKey().compareTo(o.firstKey()) < 0, symbol + " crossed after message " + messages
                    + ": " + this);
            }
        }
    }

    public long tradedQuantity() {
        return tradedQuantity;
    }

    public long trades() {
        return trades;
    }

    /** Whether the book equals the engine's top {@code depth} levels of the symbol (the admin's /book answer). */
    public boolean matches(String symbol, JsonNode book) {
        return levels(book.get("bids")).equals(side(symbol, '0')) && levels(book.get("asks")).equals(side(symbol, '1'));
    }

    public String describe(String symbol) {
        return symbol + " bids " + side(symbol, '0') + " offers " + side(symbol, '1');
    }

    private static Map<BigDecimal, Long> levels(JsonNode levels) {
        Map<BigDecimal, Long> map = new TreeMap<>();
        for (JsonNode level : levels) {
            map.put(new BigDecimal(level.get("price").asText()).stripTrailingZeros(), level.get("quantity").asLong());
        }
        return map;
    }

    private TreeMap<BigDecimal, Long> side(String symbol, char type) {
        if (type == '0') {
            return bids.computeIfAbsent(symbol, s -> new TreeMap<>(Comparator.reverseOrder()));
        }
        offers.computeIfAbsent(symbol, s -> new TreeMap<>());
        bids.computeIfAbsent(symbol, s -> new TreeMap<>(Comparator.reverseOrder()));
        return offers.get(symbol);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        bids.keySet().forEach(symbol -> text.append(describe(symbol)).append("; "));
        return text.toString();
    }
}
