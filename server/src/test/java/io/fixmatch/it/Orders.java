package io.fixmatch.it;

import quickfix.ConfigError;
import quickfix.DataDictionary;
import quickfix.FieldMap;
import quickfix.FieldNotFound;
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

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/** QuickFIX/J FIX 4.4 order messages and assertions on the server's answers. */
public final class Orders {
    static final char BUY = Side.BUY;
    static final char SELL = Side.SELL;
    private static final DataDictionary FIX44;

    static {
        try {
            FIX44 = new DataDictionary("FIX44.xml");
        } catch (ConfigError e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Orders() {
    }

    private static TransactTime now() {
        return new TransactTime(LocalDateTime.now(ZoneOffset.UTC));
    }

    /** A day limit order. */
    public static NewOrderSingle limit(String clOrdId, String symbol, char side, long qty, String price) {
        NewOrderSingle order = new NewOrderSingle(new ClOrdID(clOrdId), new Side(side), now(),
            new OrdType(OrdType.LIMIT));
        order.set(new Symbol(symbol));
        order.set(new OrderQty(qty));
        order.set(new Price(Double.parseDouble(price)));
        order.set(new TimeInForce(TimeInForce.DAY));
        return order;
    }

    public static OrderCancelRequest cancel(String clOrdId, String origClOrdId, String symbol, char side) {
        OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID(origClOrdId), new ClOrdID(clOrdId),
            new Side(side), now());
        cancel.set(new Symbol(symbol));
        return cancel;
    }

    public static OrderCancelReplaceRequest replace(String clOrdId, String origClOrdId, String symbol, char side,
                                                    long qty, String price) {
        OrderCancelReplaceRequest replace = new OrderCancelReplaceRequest(new OrigClOrdID(origClOrdId),
            new ClOrdID(clOrdId), new Side(side), now(), new OrdType(OrdType.LIMIT));
        replace.set(new Symbol(symbol));
        replace.set(new OrderQty(qty));
        replace.set(new Price(Double.parseDouble(price)));
        return replace;
    }

    public static OrderStatusRequest status(String clOrdId, String symbol, char side) {
        OrderStatusRequest status = new OrderStatusRequest(new ClOrdID(clOrdId), new Side(side));
        status.set(new Symbol(symbol));
        return status;
    }

    /** The value of a header or body field, or null. */
    static String field(Message message, int tag) {
        try {
            FieldMap map = message.isSetField(tag) ? message : message.getHeader().isSetField(tag)
                ? message.getHeader() : null;
            return map == null ? null : map.getString(tag);
        } catch (FieldNotFound e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Asserts fields: pairs of tag and expected value. A String value is compared exactly; a BigDecimal
     * numerically; null means the tag must be absent.
     */
    public static void assertFields(Message message, Object... tagsAndValues) {
        for (int i = 0; i < tagsAndValues.length; i += 2) {
            int tag = (Integer) tagsAndValues[i];
            Object expected = tagsAndValues[i + 1];
            String actual = field(message, tag);
            if (expected == null) {
                assertFalse(actual != null, "tag " + tag + " must be absent from " + QfjClient.show(message));
            } else if (expected instanceof BigDecimal decimal) {
                assertNotNull(actual, "tag " + tag + " missing from " + QfjClient.show(message));
                if (decimal.compareTo(new BigDecimal(actual)) != 0) {
                    fail("tag " + tag + ": expected " + decimal + " but was " + actual + " in "
                        + QfjClient.show(message));
                }
            } else {
                assertEquals(String.valueOf(expected), actual, "tag " + tag + " of " + QfjClient.show(message));
            }
        }
    }

    static BigDecimal dec(String value) {
        return new BigDecimal(value);
    }

    /** Validates the whole message (header and body) against FIX44.xml, as strictly as QFJ can. */
    static void assertValidFix44(Message message) {
        try {
            FIX44.validate(message);
        } catch (Exception e) {
            fail("not a valid FIX 4.4 message (" + e + "): " + QfjClient.show(message));
        }
    }
}
