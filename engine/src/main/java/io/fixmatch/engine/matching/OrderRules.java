package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.api.TradingPhase;
import io.fixmatch.engine.config.SymbolSpec;

/** The checks every price and quantity must pass before it may touch a book. */
final class OrderRules {
    private OrderRules() {
    }

    static RejectReason check(SymbolSpec spec, OrderType orderType, long price, long quantity) {
        if (quantity <= 0) {
            return RejectReason.QUANTITY_NOT_POSITIVE;
        }
        if (quantity > spec.maxQuantity()) {
            return RejectReason.QUANTITY_TOO_LARGE;
        }
        if (quantity % spec.lotSize() != 0) {
            return RejectReason.QUANTITY_NOT_LOT_MULTIPLE;
        }
        if (!orderType.hasLimitPrice()) {
            return RejectReason.NONE;
        }
        if (price <= 0) {
            return RejectReason.PRICE_NOT_POSITIVE;
        }
        if (price > spec.maxPrice()) {
            return RejectReason.PRICE_TOO_LARGE;
        }
        if (price % spec.tickSize() != 0) {
            return RejectReason.PRICE_NOT_ON_TICK;
        }
        return RejectReason.NONE;
    }

    /**
     * The order attributes of a new order (after its quantity and limit price passed {@link #check}): the stop price
     * (stop and stop-limit orders only, on the tick), MaxFloor (a resting limit order's, a lot multiple up to the
     * quantity), MinQty (IOC only, the same), post-only (a resting limit order's), the GTD expire time (GTD only, after
     * {@code nowNanos}). Each attribute an order type does not take is refused rather than ignored.
     */
    static RejectReason checkAttributes(SymbolSpec spec, Command command, long nowNanos) {
        OrderType type = command.orderType();
        TimeInForce tif = command.timeInForce();
        long stopPrice = command.stopPrice();
        if (type.isStop() ? stopPrice <= 0 || stopPrice > spec.maxPrice() || stopPrice % spec.tickSize() != 0
            : stopPrice != 0) {
            return RejectReason.INVALID_STOP_PRICE;
        }
        long maxFloor = command.maxFloor();
        if (maxFloor != 0 && (!type.hasLimitPrice() || !tif.rests() || !isLotsUpTo(spec, maxFloor,
            command.quantity()))) {
            return RejectReason.INVALID_MAX_FLOOR;
        }
        long minQuantity = command.minQuantity();
        if (minQuantity != 0 && (tif != TimeInForce.IOC || !isLotsUpTo(spec, minQuantity, command.quantity()))) {
            return RejectReason.INVALID_MIN_QUANTITY;
        }
        if (command.postOnly() && (type != OrderType.LIMIT || !tif.rests())) {
            return RejectReason.INVALID_POST_ONLY;
        }
        if (tif == TimeInForce.GTD) {
            return command.expireTimeNanos() <= nowNanos ? RejectReason.INVALID_EXPIRE_TIME : RejectReason.NONE;
        }
        return command.expireTimeNanos() != 0 ? RejectReason.EXPIRE_TIME_NOT_GTD : RejectReason.NONE;
    }

    /**
     * What the symbol's trading phase allows (after the attributes): no IOC or FOK during a call
     * ({@code NOT_DURING_CALL}); At the Opening only during the opening call, At the Close only on a symbol with a
     * schedule, neither on a stop order ({@code AUCTION_TIF_NOT_NOW}). (A closed symbol refuses every order earlier.)
     */
    static RejectReason checkPhase(TradingSession session, Command command) {
        TimeInForce tif = command.timeInForce();
        if (session.phase.isCall() && (tif == TimeInForce.IOC || tif == TimeInForce.FOK)) {
            return RejectReason.NOT_DURING_CALL;
        }
        if (tif == TimeInForce.AT_THE_OPENING || tif == TimeInForce.AT_THE_CLOSE) {
            boolean allowed = !command.orderType().isStop() && (tif == TimeInForce.AT_THE_OPENING
                ? session.phase == TradingPhase.OPENING_CALL : session.scheduled());
            return allowed ? RejectReason.NONE : RejectReason.AUCTION_TIF_NOT_NOW;
        }
        return RejectReason.NONE;
    }

    private static boolean isLotsUpTo(SymbolSpec spec, long quantity, long orderQuantity) {
        return quantity > 0 && quantity <= orderQuantity && quantity % spec.lotSize() == 0;
    }
}
