package io.fixmatch.fix.marketdata;

import io.fixmatch.engine.metrics.CounterArray;

/** What one gateway's market data does, written by its thread, read by any (the admin endpoint's metrics). */
public final class MarketDataCounters {
    static final int SUBSCRIPTIONS = 0;
    static final int SUBSCRIBERS = 1;
    static final int SNAPSHOTS = 2;
    static final int UPDATES = 3;
    static final int CONFLATED = 4;
    static final int TRADES_NOT_SENT = 5;
    static final int REJECTS = 6;
    static final int CATCH_UPS = 7;

    private final CounterArray counters = new CounterArray(8);

    void add(int counter, long delta) {
        counters.add(counter, delta);
    }

    /** Live subscriptions (MDReqIDs subscribed and not unsubscribed, of connected sessions). */
    public long subscriptions() {
        return counters.get(SUBSCRIPTIONS);
    }

    /** Sessions with at least one live subscription. */
    public long subscribers() {
        return counters.get(SUBSCRIBERS);
    }

    /** MarketDataSnapshotFullRefresh messages sent. */
    public long snapshots() {
        return counters.get(SNAPSHOTS);
    }

    /** MarketDataIncrementalRefresh messages sent. */
    public long updates() {
        return counters.get(UPDATES);
    }

    /** Updates of a subscription held back because its connection was behind (then sent as one per symbol). */
    public long conflatedUpdates() {
        return counters.get(CONFLATED);
    }

    /** Trades not sent to a subscription because its connection was behind. */
    public long tradesNotSent() {
        return counters.get(TRADES_NOT_SENT);
    }

    /** MarketDataRequestRejects sent. */
    public long rejects() {
        return counters.get(REJECTS);
    }

    /** Times a subscription that was behind caught up (its stale symbols sent). */
    public long catchUps() {
        return counters.get(CATCH_UPS);
    }
}
