package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.SymbolSpec;

/**
 * Each session's pre-trade risk limits and kill switch, and what they are checked against: the session's open
 * orders, each symbol's last trade and reference price. Checks are a few array reads and multiplications: constant
 * time, no allocation. A failed check leaves what it measured in {@link #value()}, {@link #low()} and
 * {@link #high()} for the reject's Text. The matching thread's state, changed only by journaled commands (settings,
 * kill switches) and by trades; see docs/MATCHING.md, "Pre-trade risk".
 */
final class PreTradeRisk {
    private static final long BASIS_POINTS = 10_000;
    private static final long[] POWERS_OF_TEN = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L,
        10_000_000L, 100_000_000L, 1_000_000_000L};

    private final long[] maxOrderQuantity = new long[OwnerOrders.MAX_OWNERS];
    private final long[] maxNotional = new long[OwnerOrders.MAX_OWNERS];
    private final long[] maxOpenOrders = new long[OwnerOrders.MAX_OWNERS];
    private final long[] collarBasisPoints = new long[OwnerOrders.MAX_OWNERS];
    private final long[] collarTicks = new long[OwnerOrders.MAX_OWNERS];
    private final boolean[] killSwitch = new boolean[OwnerOrders.MAX_OWNERS];
    private final int[] openOrders = new int[OwnerOrders.MAX_OWNERS];
    private final long[] lastTradePrice;
    private final long[] referencePrice;
    private long value;
    private long low;
    private long high;

    PreTradeRisk(int symbols) {
        lastTradePrice = new long[symbols];
        referencePrice = new long[symbols];
    }

    /**
     * A new order's checks, after its own validity (the caller checked owner, symbol, quantity and price): the
     * kill switch, order quantity, notional, price collar (limit orders), open orders (DAY and GTC limit orders).
     */
    RejectReason checkNewOrder(int owner, int symbolId, SymbolSpec spec, OrderType orderType,
                               TimeInForce timeInForce, long price, long quantity) {
        if (killSwitch[owner]) {
            return found(0, 0, 0, RejectReason.KILL_SWITCH_ENGAGED);
        }
        boolean market = orderType == OrderType.MARKET;
        RejectReason reason = checkSize(owner, symbolId, spec, market, price, quantity);
        if (reason != RejectReason.NONE) {
            return reason;
        }
        if (!market && outsideCollar(owner, symbolId, spec, price)) {
            return RejectReason.RISK_PRICE_COLLAR;
        }
        long maxOpen = maxOpenOrders[owner];
        if (maxOpen > 0 && !market && timeInForce.rests() && openOrders[owner] >= maxOpen) {
            return found(openOrders[owner], 0, maxOpen, RejectReason.RISK_OPEN_ORDERS);
        }
        return RejectReason.NONE;
    }

    /** A replace that loses priority (a new price or a larger quantity) is checked as a new limit order would be. */
    RejectReason checkReplace(int owner, int symbolId, SymbolSpec spec, long price, long quantity) {
        if (killSwitch[owner]) {
            return found(0, 0, 0, RejectReason.KILL_SWITCH_ENGAGED);
        }
        RejectReason reason = checkSize(owner, symbolId, spec, false, price, quantity);
        if (reason != RejectReason.NONE) {
            return reason;
        }
        return outsideCollar(owner, symbolId, spec, price) ? RejectReason.RISK_PRICE_COLLAR : RejectReason.NONE;
    }

    private RejectReason checkSize(int owner, int symbolId, SymbolSpec spec, boolean market, long price,
                                   long quantity) {
        long maxQuantity = maxOrderQuantity[owner];
        if (maxQuantity > 0 && quantity > maxQuantity) {
            return found(quantity, 0, maxQuantity, RejectReason.RISK_ORDER_QUANTITY);
        }
        long maxWhole = maxNotional[owner];
        if (maxWhole > 0) {
            long valuedAt = market ? reference(symbolId) : price;
            if (valuedAt == 0) {
                return found(0, 0, 0, RejectReason.RISK_NO_REFERENCE_PRICE);
            }
            // Both are at most the symbol's maxPrice and maxQuantity, whose product fits a long (SymbolSpec).
            long notional = valuedAt * quantity;
            long limit = inPriceUnits(maxWhole, spec.priceScale());
            if (notional > limit) {
                return found(notional, 0, limit, RejectReason.RISK_NOTIONAL);
            }
        }
        return RejectReason.NONE;
    }

    /** Whether a limit price lies outside the session's collar; no collar or no reference price: never. */
    private boolean outsideCollar(int owner, int symbolId, SymbolSpec spec, long price) {
        long basisPoints = collarBasisPoints[owner];
        long ticks = collarTicks[owner];
        if (basisPoints == 0 && ticks == 0) {
            return false;
        }
        long reference = reference(symbolId);
        if (reference == 0) {
            return false;
        }
        long offset = basisPoints != 0 ? basisPointsOf(reference, basisPoints) : saturatedProduct(ticks,
            spec.tickSize());
        long bandLow = reference - offset;
        long bandHigh = reference > Long.MAX_VALUE - offset ? Long.MAX_VALUE : reference + offset;
        if (price < bandLow || price > bandHigh) {
            found(price, bandLow, bandHigh, RejectReason.RISK_PRICE_COLLAR);
            return true;
        }
        return false;
    }

    /** The collar's reference: the symbol's last trade, else its configured reference price, else 0 (none). */
    long reference(int symbolId) {
        long last = lastTradePrice[symbolId];
        return last != 0 ? last : referencePrice[symbolId];
    }

    private RejectReason found(long measured, long bandLow, long limit, RejectReason reason) {
        value = measured;
        low = bandLow;
        high = limit;
        return reason;
    }

    /** What the last failed check measured (see {@link io.fixmatch.engine.api.ExecutionEvent#risk}). */
    long value() {
        return value;
    }

    long low() {
        return low;
    }

    long high() {
        return high;
    }

    // ---------------------------------------------------------------------------------------------- state

    void onTrade(int symbolId, long price) {
        lastTradePrice[symbolId] = price;
    }

    void orderRested(int owner) {
        openOrders[owner]++;
    }

    void orderGone(int owner) {
        openOrders[owner]--;
    }

    int openOrders(int owner) {
        return openOrders[owner];
    }

    boolean killSwitch(int owner) {
        return killSwitch[owner];
    }

    void killSwitch(int owner, boolean engaged) {
        killSwitch[owner] = engaged;
    }

    long lastTradePrice(int symbolId) {
        return lastTradePrice[symbolId];
    }

    long referencePrice(int symbolId) {
        return referencePrice[symbolId];
    }

    void referencePrice(int symbolId, long price) {
        referencePrice[symbolId] = Math.max(0, price);
    }

    /** Recovery: the symbol's last trade price as the snapshot recorded it. */
    void restoreLastTradePrice(int symbolId, long price) {
        lastTradePrice[symbolId] = price;
    }

    /** The value of one of the risk controls (the self-trade controls live elsewhere); 0: none. */
    long control(int owner, SessionControl control) {
        return switch (control) {
            case MAX_ORDER_QUANTITY -> maxOrderQuantity[owner];
            case MAX_NOTIONAL -> maxNotional[owner];
            case MAX_OPEN_ORDERS -> maxOpenOrders[owner];
            case PRICE_COLLAR_BASIS_POINTS -> collarBasisPoints[owner];
            case PRICE_COLLAR_TICKS -> collarTicks[owner];
            case KILL_SWITCH -> killSwitch[owner] ? 1 : 0;
            case FIRM, SELF_TRADE_PREVENTION -> 0;
        };
    }

    /** Sets a risk control; a negative value counts as 0 (none). Returns false for a control that is not risk's. */
    boolean setControl(int owner, SessionControl control, long value) {
        long v = Math.max(0, value);
        switch (control) {
            case MAX_ORDER_QUANTITY -> maxOrderQuantity[owner] = v;
            case MAX_NOTIONAL -> maxNotional[owner] = v;
            case MAX_OPEN_ORDERS -> maxOpenOrders[owner] = v;
            case PRICE_COLLAR_BASIS_POINTS -> collarBasisPoints[owner] = v;
            case PRICE_COLLAR_TICKS -> collarTicks[owner] = v;
            case KILL_SWITCH -> killSwitch[owner] = v != 0;
            case FIRM, SELF_TRADE_PREVENTION -> {
                return false;
            }
        }
        return true;
    }

    /** Whole currency units in price units (x 10^scale), saturating: a limit too large to reach is no limit. */
    private static long inPriceUnits(long whole, int scale) {
        return saturatedProduct(whole, POWERS_OF_TEN[scale]);
    }

    /** {@code price x basisPoints / 10,000}, rounded down, saturating instead of overflowing. */
    private static long basisPointsOf(long price, long basisPoints) {
        long whole = price / BASIS_POINTS;
        long rest = price % BASIS_POINTS;
        return saturatedSum(saturatedProduct(whole, basisPoints), saturatedProduct(rest, basisPoints) / BASIS_POINTS);
    }

    private static long saturatedProduct(long a, long b) {
        return a != 0 && b > Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
    }

    private static long saturatedSum(long a, long b) {
        return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
    }
}
