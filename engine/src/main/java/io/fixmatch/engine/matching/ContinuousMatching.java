package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.api.TradingPhase;

/**
 * Continuous trading: an aggressor (a new order, a triggered stop, a replace that lost priority) trades against the
 * opposite side at the resting orders' prices, best price first, oldest first: FOK and MinQty counted first,
 * icebergs refilled at the back of their level, self-trade prevention ({@link SelfTradeRule}) applied, and a
 * volatility band that turns a trade outside it into an interruption ({@link TradingPhases#startInterruption}).
 * The per-order path: nothing here allocates.
 */
final class ContinuousMatching {
    private final LiveOrders live;
    private final CallAuction auction;
    private final TradingPhases phases;
    private final PreTradeRisk risk;
    private final SelfTradeRule selfTrade;
    private final EventPublisher publisher;
    /** The volatility band of the aggressor being matched (see {@link #setBand}). */
    private boolean banded;
    private long bandLow;
    private long bandHigh;
    /** Set by {@link #canFill} when it stopped at the band: what it lacks lies outside. */
    private boolean bandReached;

    ContinuousMatching(LiveOrders live, CallAuction auction, TradingPhases phases, PreTradeRisk risk,
                       SelfTradeRule selfTrade, EventPublisher publisher) {
        this.live = live;
        this.auction = auction;
        this.phases = phases;
        this.risk = risk;
        this.selfTrade = selfTrade;
        this.publisher = publisher;
    }

    /**
     * An accepted order (new, or a stop just triggered: then {@code tracked}, it is live already) trades and then
     * rests or ends: FOK and MinQty first check that enough can trade at once (else canceled, nothing traded); the
     * rest of a limit order that can rest rests, any other rest is canceled.
     */
    void enter(Order order, boolean tracked) {
        if (order.book.session.phase != TradingPhase.CONTINUOUS) {
            auction.enterDuringCall(order, tracked); // a stop triggered after an interruption began in the same command
            return;
        }
        setBand(order.book);
        if (order.timeInForce == TimeInForce.FOK && !canFill(order, order.leaves)) {
            endUnfilled(order, tracked, RejectReason.NONE);
            return;
        }
        if (order.minQuantity != 0 && !canFill(order, order.minQuantity)) {
            endUnfilled(order, tracked, RejectReason.MIN_QUANTITY_NOT_AVAILABLE);
            return;
        }
        boolean selfTradeStop = matchAggressor(order);
        if (order.leaves == 0) {
            if (tracked) {
                live.untrack(order);
            }
            live.release(order);
        } else if (selfTradeStop) {
            live.end(order, tracked, RejectReason.SELF_TRADE_INCOMING);
        } else if (order.book.session.phase != TradingPhase.CONTINUOUS) {
            auction.enterDuringCall(order, tracked); // it reached the band: the interruption's call takes its rest
        } else if (order.orderType.hasLimitPrice() && order.timeInForce.rests()) {
            if (tracked && live.noFreeLevel(order.book.side(order.side), order.price)) {
                live.end(order, true, RejectReason.BOOK_FULL); // a triggered stop-limit order finds no free level
                return;
            }
            live.rest(order);
            if (!tracked) {
                live.track(order);
            }
        } else {
            live.end(order, tracked, RejectReason.NONE);
        }
    }

    /**
     * A replaced order that lost its priority, out of its level, trades as an aggressor before it rests again:
     * returns whether self-trade prevention stopped it (its rest is then to be canceled).
     */
    boolean aggress(Order order) {
        setBand(order.book);
        return matchAggressor(order);
    }

    /**
     * A FOK or MinQty order that could not trade enough at once: CANCELED, nothing traded; if what it lacked lies
     * beyond the volatility band, the interruption starts and the reason says so.
     */
    private void endUnfilled(Order order, boolean tracked, RejectReason reason) {
        if (bandReached) {
            phases.startInterruption(order.book);
            live.end(order, tracked, RejectReason.VOLATILITY_INTERRUPTION);
        } else {
            live.end(order, tracked, reason);
        }
    }

    /**
     * Trades the order against the opposite side, best price first, oldest order first, at the resting price. A
     * resting order of the same party (session or firm) is handled by the aggressor's self-trade prevention mode:
     * returns true when that stops the aggressor (its rest is then to be canceled), false when it ran out of
     * quantity or of acceptable prices.
     */
    private boolean matchAggressor(Order aggressor) {
        BookSide opposite = aggressor.book.side(aggressor.side.opposite());
        SelfTradePrevention selfTradeMode = selfTrade.modeOf(aggressor.owner);
        while (aggressor.leaves > 0) {
            PriceLevel level = opposite.best;
            if (level == null || !aggressor.acceptsPrice(level.price)) {
                return false;
            }
            long price = level.price;
            if (banded && (price < bandLow || price > bandHigh)) {
                phases.startInterruption(aggressor.book); // it would trade outside the band: an auction instead
                return false;
            }
            Order resting = level.head;
            while (resting != null && aggressor.leaves > 0) {
                Order nextResting = resting.next;
                if (selfTradeMode != SelfTradePrevention.NONE && selfTrade.sameParty(aggressor.owner, resting.owner)) {
                    if (selfTradeStops(resting, selfTradeMode)) {
                        return true;
                    }
                    resting = nextResting;
                    continue;
                }
                resting = trade(aggressor, resting, nextResting, price);
            }
        }
        return false;
    }

    /**
     * The aggressor meets a resting order of its own party: cancel-resting cancels that one and matching goes on,
     * cancel-incoming stops matching, cancel-both does both. Returns whether matching stops.
     */
    private boolean selfTradeStops(Order resting, SelfTradePrevention selfTradeMode) {
        if (selfTradeMode != SelfTradePrevention.CANCEL_INCOMING) {
            live.cancelLive(resting, RejectReason.SELF_TRADE_RESTING);
        }
        return selfTradeMode != SelfTradePrevention.CANCEL_RESTING;
    }

    /**
     * One trade of the aggressor with a resting order at its level's price: the resting order trades its displayed
     * part (all of it, but for an iceberg), then leaves the book, shows its next part at the back of the level
     * (iceberg) or stays with less. Returns the resting order to look at next.
     */
    private Order trade(Order aggressor, Order resting, Order nextResting, long price) {
        PriceLevel level = resting.level;
        long quantity = Math.min(aggressor.leaves, resting.shown);
        aggressor.fill(quantity, price);
        resting.fill(quantity, price);
        resting.shown -= quantity;
        level.totalQuantity -= quantity;
        level.displayedQuantity -= quantity;
        risk.onTrade(aggressor.book.symbolId, price);
        publisher.fill(aggressor, quantity, price);
        publisher.fill(resting, quantity, price);
        live.marketData.traded(aggressor.book.symbolId, price, quantity);
        if (resting.leaves == 0) {
            live.removeLive(resting);
            live.release(resting);
        } else if (resting.shown == 0) {
            refill(resting);
            if (nextResting == null) {
                return resting; // it was the last in the queue and still is
            }
        } else {
            live.levelChanged(level);
        }
        return nextResting;
    }

    /**
     * An iceberg whose displayed part traded away shows its next part (its floor, or what is left) and goes to the back
     * of its level: the hidden part trades only after the interest displayed at its price.
     */
    private void refill(Order order) {
        PriceLevel level = order.level;
        level.unlink(order);
        order.shown = order.displayOnRest();
        level.append(order);
        live.levelChanged(level);
    }

    /**
     * Whether the opposite side holds at least {@code needed} at acceptable prices now (hidden iceberg parts included:
     * they trade in the same sweep). With self-trade prevention, what it can trade: orders of its own party are passed
     * over (cancel-resting: they would be canceled) or end the count (cancel-incoming, cancel-both: matching would
     * stop there).
     */
    private boolean canFill(Order order, long needed) {
        bandReached = false;
        SelfTradePrevention selfTradeMode = selfTrade.modeOf(order.owner);
        if (selfTradeMode != SelfTradePrevention.NONE) {
            return canFillWithoutSelfTrade(order, selfTradeMode, needed);
        }
        long available = 0;
        for (PriceLevel level = order.book.side(order.side.opposite()).best;
             level != null && order.acceptsPrice(level.price); level = level.worse) {
            if (outsideBand(level.price)) {
                return false;
            }
            available += level.totalQuantity;
            if (available >= needed) {
                return true;
            }
        }
        return false;
    }

    private boolean canFillWithoutSelfTrade(Order order, SelfTradePrevention selfTradeMode, long needed) {
        long available = 0;
        for (PriceLevel level = order.book.side(order.side.opposite()).best;
             level != null && order.acceptsPrice(level.price); level = level.worse) {
            if (outsideBand(level.price)) {
                return false;
            }
            for (Order resting = level.head; resting != null; resting = resting.next) {
                if (selfTrade.sameParty(order.owner, resting.owner)) {
                    if (selfTradeMode == SelfTradePrevention.CANCEL_RESTING) {
                        continue;
                    }
                    return false;
                }
                available += resting.leaves;
                if (available >= needed) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The aggressor's volatility band: around the last trade price (else the reference price), if the symbol has one. */
    private void setBand(OrderBook book) {
        long basisPoints = book.session.bandBasisPoints;
        long reference = basisPoints == 0 ? 0 : risk.reference(book.symbolId);
        banded = reference != 0;
        if (banded) {
            long offset = reference * basisPoints / 10_000;
            bandLow = reference - offset;
            bandHigh = reference + offset;
        }
    }

    /** Whether a trade at {@code price} would leave the band (then {@link #bandReached}). */
    private boolean outsideBand(long price) {
        if (banded && (price < bandLow || price > bandHigh)) {
            bandReached = true;
            return true;
        }
        return false;
    }
}
