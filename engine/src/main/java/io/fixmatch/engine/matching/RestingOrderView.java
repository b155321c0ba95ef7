package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;

/** Read-only view of an order resting in a book, for inspection, snapshots and tests. */
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
}
