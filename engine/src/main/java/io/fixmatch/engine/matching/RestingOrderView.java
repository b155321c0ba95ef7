package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;

/** Read-only view of a live order (resting in a book, or a stop waiting for its trigger), for inspection, snapshots and tests. */
public interface RestingOrderView {
    long orderId();
    int owner();
    ClientOrderId clientOrderId();
    int symbolId();
    Side side();
    TimeInForce timeInForce();
    long price();
    long orderQuantity();
    long leavesQuantity();
    long cumQuantity();
    long cumNotional();
    /** LIMIT, or STOP_LIMIT once triggered; a waiting stop: STOP or STOP_LIMIT. */
    OrderType orderType();
    /** Stop and stop-limit orders' stop price, else 0. */
    long stopPrice();
    /** An iceberg's displayed quantity when it refills (MaxFloor), else 0. */
    long maxFloor();
    /** What shows in the book (market data): the leaves, or an iceberg's current displayed part; 0 for a waiting stop. */
    long displayedQuantity();
    /** GTD orders' expire time (epoch ns), else 0. */
    long expireTimeNanos();
    boolean postOnly();
}
