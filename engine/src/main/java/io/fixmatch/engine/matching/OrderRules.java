package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
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
        if (orderType == OrderType.MARKET) {
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
}
