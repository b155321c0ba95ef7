package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Duplicates after a resend (issue #14): a new order or replace the client marked as possibly sent before
 * (PossDupFlag or PossResend) whose ClOrdID is live was entered the first time: it is answered with the order's
 * status, not entered twice and not rejected as a duplicate (which would tell the client its order was refused).
 * Without the mark, a live ClOrdID is a duplicate and rejected; with the mark and no live order, it is entered.
 */
class ResentRequestTest {
    private final List<ExecutionEvent> events = new ArrayList<>();
    private final MatchingEngine engine = new MatchingEngine(new EngineConfig(List.of(EngineHarness.ACME), 100, 100),
        event -> {
            ExecutionEvent copy = new ExecutionEvent();
            copy.begin(event.type(), event.timestampNanos(), event.owner()).ids(event.orderId(), event.execId())
                .status(event.status()).rejectReason(event.rejectReason())
                .quantities(event.leavesQuantity(), event.cumQuantity(), event.cumNotional());
            copy.clientOrderId().copyFrom(event.clientOrderId());
            events.add(copy);
        });

    private static Command order(String clOrdId, boolean resent) {
        return new Command().newOrder(1, clOrdId, 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 1_000, 100)
            .possibleResend(resent);
    }

    @Test
    void aResentNewOrderWhoseClOrdIdIsLiveIsAnsweredWithItsStatus() {
        engine.process(order("A", false));
        events.clear();
        engine.process(order("A", true));
        assertEquals(1, events.size());
        assertEquals(EventType.STATUS, events.get(0).type());
        assertEquals(1, events.get(0).orderId(), "the order entered the first time");
        assertEquals(1, engine.liveOrderCount(), "not entered twice");
        assertEquals(1, engine.lastOrderId());
    }

    @Test
    void withoutTheMarkALiveClOrdIdIsADuplicate() {
        engine.process(order("A", false));
        events.clear();
        engine.process(order("A", false));
        assertEquals(EventType.REJECTED, events.get(0).type());
        assertEquals(RejectReason.DUPLICATE_CLIENT_ORDER_ID, events.get(0).rejectReason());
    }

    @Test
    void aResentNewOrderThatIsNotLiveIsEntered() {
        engine.process(order("B", true));
        assertEquals(EventType.ACCEPTED, events.get(0).type());
        assertEquals(1, engine.liveOrderCount());
    }

    @Test
    void aResentReplaceThatWasDoneIsAnsweredWithItsStatus() {
        engine.process(order("A", false));
        Command replace = new Command().replace(1, "A2", "A", 0, Side.BUY, 1_000, 50);
        engine.process(replace);
        events.clear();
        engine.process(replace.possibleResend(true));
        assertEquals(1, events.size());
        assertEquals(EventType.STATUS, events.get(0).type());
        assertEquals("A2", events.get(0).clientOrderId().toString());
        assertEquals(50, events.get(0).leavesQuantity());
    }
}
