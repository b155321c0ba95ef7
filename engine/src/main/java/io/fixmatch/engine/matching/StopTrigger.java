package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.TradingPhase;

/**
 * The stop trigger: after a new order or replace is done, and after an uncross that leads to continuous trading, the
 * waiting stops ({@link WaitingStops}) the book's last trade price reaches are triggered and entered as the market or
 * limit orders they become, in the order they were triggered; each one's trades may trigger more, which queue behind.
 */
final class StopTrigger {
    private final ContinuousMatching matching;
    private final PreTradeRisk risk;
    private final EventPublisher publisher;
    /** Stops triggered and not yet entered, in the order they were triggered (linked through {@code next}). */
    private Order triggeredHead;
    private Order triggeredTail;

    StopTrigger(ContinuousMatching matching, PreTradeRisk risk, EventPublisher publisher) {
        this.matching = matching;
        this.risk = risk;
        this.publisher = publisher;
    }

    /**
     * Stops the last trade price reaches are triggered and entered, in the order they were triggered. Looks at the
     * book's waiting stops only: O(1) when none is triggered.
     */
    void triggerStops(OrderBook book) {
        collectTriggered(book);
        while (triggeredHead != null) {
            Order order = triggeredHead;
            triggeredHead = order.next;
            if (triggeredHead == null) {
                triggeredTail = null;
            }
            order.next = null;
            order.triggered = true;
            publisher.triggered(order);
            matching.enter(order, true);
            if (book.stops.count != 0) {
                collectTriggered(book);
            }
        }
    }

    /** Moves every waiting stop the book's last trade price triggers to the back of the triggered queue. */
    private void collectTriggered(OrderBook book) {
        long lastPrice = risk.lastTradePrice(book.symbolId);
        if (lastPrice == 0 || book.session.phase != TradingPhase.CONTINUOUS) {
            return; // no trade yet, or not trading continuously: nothing triggers
        }
        for (Order order = book.stops.firstTriggeredBy(lastPrice); order != null;
             order = book.stops.firstTriggeredBy(lastPrice)) {
            book.stops.remove(order);
            if (triggeredTail == null) {
                triggeredHead = order;
            } else {
                triggeredTail.next = order;
            }
            triggeredTail = order;
        }
    }
}
