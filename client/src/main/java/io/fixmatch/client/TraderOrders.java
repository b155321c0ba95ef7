package io.fixmatch.client;

import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelReplaceRequest;
import quickfix.fix44.OrderCancelRequest;
import quickfix.fix44.OrderStatusRequest;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The orders one terminal sent, by the number the trader types (1, 2, ...), and the FIX messages that act on them.
 * ClOrdIDs are {@code <run>-<number>}, {@code <run>-<number>.<k>} after the k-th replace or for the k-th request
 * about it, where {@code <run>} differs between runs, so a new run never reuses an id a live order still has.
 * Thread-safe: the terminal sends, QuickFIX/J's thread reports.
 */
final class TraderOrders {
    /** One order as this terminal knows it. */
    static final class Order {
        final int number;
        final char side;
        final String symbol;
        String clOrdId;
        long quantity;
        /** Null for a market order. */
        String price;
        final char timeInForce;
        int requests;

        Order(int number, char side, String symbol, String clOrdId, long quantity, String price, char timeInForce) {
            this.number = number;
            this.side = side;
            this.symbol = symbol;
            this.clOrdId = clOrdId;
            this.quantity = quantity;
            this.price = price;
            this.timeInForce = timeInForce;
        }
    }

    private final String run = Long.toString(System.currentTimeMillis() / 1000, 36);
    private final Map<Integer, Order> byNumber = new LinkedHashMap<>();
    /** Every ClOrdID sent (orders, replaces, cancel and status requests) to its order. */
    private final Map<String, Order> byClOrdId = new HashMap<>();
    /** Requests sent and not answered yet. */
    private final Set<String> unanswered = new HashSet<>();

    synchronized Order add(char side, String symbol, long quantity, String price, char timeInForce) {
        int number = byNumber.size() + 1;
        Order order = new Order(number, side, symbol, run + "-" + number, quantity, price, timeInForce);
        byNumber.put(number, order);
        byClOrdId.put(order.clOrdId, order);
        unanswered.add(order.clOrdId);
        return order;
    }

    synchronized Order byNumber(int number) {
        return byNumber.get(number);
    }

    synchronized List<Order> all() {
        return new ArrayList<>(byNumber.values());
    }

    /** The order a report or reject is about (by its ClOrdID, else its OrigClOrdID), or null; marks it answered. */
    synchronized Order answeredBy(Message message) {
        String clOrdId = Fields.of(message, ClOrdID.FIELD);
        unanswered.remove(clOrdId);
        Order order = clOrdId == null ? null : byClOrdId.get(clOrdId);
        return order != null ? order : byClOrdId.get(Fields.of(message, OrigClOrdID.FIELD));
    }

    /** A replace took effect: the order now goes by the replace's ClOrdID, quantity and price. */
    synchronized void replaced(Order order, String clOrdId, long quantity, String price) {
        order.clOrdId = clOrdId;
        order.quantity = quantity;
        order.price = price;
    }

    synchronized boolean allAnswered() {
        return unanswered.isEmpty();
    }

    NewOrderSingle newOrderSingle(Order order) {
        NewOrderSingle message = new NewOrderSingle(new ClOrdID(order.clOrdId), new Side(order.side), now(),
            new OrdType(order.price == null ? OrdType.MARKET : OrdType.LIMIT));
        message.set(new Symbol(order.symbol));
        message.set(new OrderQty(order.quantity));
        if (order.price != null) {
            message.setString(Price.FIELD, order.price); // exactly as typed: no detour through a double
        }
        message.set(new TimeInForce(order.timeInForce));
        return message;
    }

    OrderCancelRequest cancel(Order order) {
        OrderCancelRequest message = new OrderCancelRequest(new OrigClOrdID(order.clOrdId),
            new ClOrdID(nextRequestId(order)), new Side(order.side), now());
        message.set(new Symbol(order.symbol));
        return message;
    }

    OrderCancelReplaceRequest replace(Order order, long quantity, String price) {
        OrderCancelReplaceRequest message = new OrderCancelReplaceRequest(new OrigClOrdID(order.clOrdId),
            new ClOrdID(nextRequestId(order)), new Side(order.side), now(), new OrdType(OrdType.LIMIT));
        message.set(new Symbol(order.symbol));
        message.set(new OrderQty(quantity));
        message.setString(Price.FIELD, price);
        return message;
    }

    /** Asks for the order's state under its current ClOrdID. */
    synchronized OrderStatusRequest status(Order order) {
        unanswered.add(order.clOrdId);
        OrderStatusRequest message = new OrderStatusRequest(new ClOrdID(order.clOrdId), new Side(order.side));
        message.set(new Symbol(order.symbol));
        return message;
    }

    private synchronized String nextRequestId(Order order) {
        String id = run + "-" + order.number + "." + ++order.requests;
        byClOrdId.put(id, order);
        unanswered.add(id);
        return id;
    }

    private static TransactTime now() {
        return new TransactTime(LocalDateTime.now(ZoneOffset.UTC));
    }
}
