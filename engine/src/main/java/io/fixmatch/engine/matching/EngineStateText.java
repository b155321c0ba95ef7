package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;

/**
 * The whole state of an engine as text: id counters and the last command's and day end's journal timestamps, then every resting order of every book, in priority order,
 * with every field that matters for matching, then the halted symbols (a line only when some are), each session's
 * non-zero risk and self-trade settings and engaged kill switches, each symbol's last trade and reference price. Two engines in
 * the same state print the same text, byte for byte;
 * recovery tests compare these, and ops can print the books. Allocates: never on the hot path.
 */
public final class EngineStateText {
    private EngineStateText() {
    }

    public static String of(MatchingEngine engine) {
        StringBuilder text = new StringBuilder();
        text.append("lastOrderId=").append(engine.lastOrderId())
            .append(" lastExecId=").append(engine.lastExecId())
            .append(" lastCommandNanos=").append(engine.lastCommandNanos())
            .append(" lastDayEndNanos=").append(engine.lastDayEndNanos())
            .append(" marketDataSequence=").append(engine.marketDataSequence()).append('\n');
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            for (Side side : new Side[] {Side.BUY, Side.SELL}) {
                int symbolId = symbol;
                engine.forEachRestingOrder(symbolId, side, order -> appendOrder(text.append(symbolId).append(' '),
                    order));
            }
        }
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            for (Side side : new Side[] {Side.BUY, Side.SELL}) {
                int symbolId = symbol;
                engine.forEachWaitingStop(symbolId, side, order -> appendOrder(text.append(symbolId)
                    .append(" waiting "), order));
            }
        }
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            for (Side side : new Side[] {Side.BUY, Side.SELL}) {
                int symbolId = symbol;
                engine.forEachQueuedOrder(symbolId, side, order -> appendOrder(text.append(symbolId)
                    .append(" queued "), order));
            }
            TradingSession session = engine.bookOf(symbol).session;
            if (session.phase != io.fixmatch.engine.api.TradingPhase.CONTINUOUS || session.deadline()
                != TradingSession.NONE || session.scheduled() || session.bandBasisPoints != 0) {
                text.append(symbol).append(" session phase=").append(session.phase)
                    .append(" next=").append(session.nextPoint).append('/').append(session.nextPointKind)
                    .append(" interruptionEnd=").append(session.interruptionEnd)
                    .append(" times=").append(java.util.Arrays.toString(session.times))
                    .append(" random=").append(session.randomEndMillis)
                    .append(" band=").append(session.bandBasisPoints)
                    .append(" interruption=").append(session.interruptionMillis)
                    .append(" zone=").append(session.zoneId).append('\n');
            }
        }
        StringBuilder halted = new StringBuilder();
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            if (engine.isHalted(symbol)) {
                halted.append(halted.length() == 0 ? "" : ",").append(symbol);
            }
        }
        if (halted.length() > 0) {
            text.append("halted=").append(halted).append('\n');
        }
        EngineState.forEachSessionControl(engine, (owner, control, value) -> text.append("owner ").append(owner)
            .append(' ').append(control).append('=').append(value).append('\n'));
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            if (engine.lastTradePrice(symbol) != 0 || engine.referencePrice(symbol) != 0) {
                text.append(symbol).append(" lastTrade=").append(engine.lastTradePrice(symbol)).append(" reference=")
                    .append(engine.referencePrice(symbol)).append('\n');
            }
        }
        return text.toString();
    }

    private static void appendOrder(StringBuilder text, RestingOrderView order) {
        text.append(order.side())
            .append(" price=").append(order.price())
            .append(" orderId=").append(order.orderId())
            .append(" owner=").append(order.owner())
            .append(" clOrdId=").append(order.clientOrderId())
            .append(" tif=").append(order.timeInForce())
            .append(" qty=").append(order.orderQuantity())
            .append(" leaves=").append(order.leavesQuantity())
            .append(" cum=").append(order.cumQuantity())
            .append(" notional=").append(order.cumNotional());
        if (order.orderType() != OrderType.LIMIT) {
            text.append(" type=").append(order.orderType()).append(" stopPx=").append(order.stopPrice());
        }
        if (order.maxFloor() != 0) {
            text.append(" maxFloor=").append(order.maxFloor()).append(" shown=").append(order.displayedQuantity());
        }
        if (order.expireTimeNanos() != 0) {
            text.append(" expire=").append(order.expireTimeNanos());
        }
        if (order.postOnly()) {
            text.append(" postOnly");
        }
        text.append('\n');
    }
}
