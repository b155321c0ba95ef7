package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.api.TradingPhase;

/**
 * A book's phases as its day goes: the schedule's points (a call begins; a call ends in its uncross, then continuous
 * trading or the close) and an interruption's end, in time order as they fall due, and the phase the schedule gives
 * when the server sets it (SET_SYMBOL_CONTROL). What goes with each: the closing call takes in the At the Close orders,
 * the end of a call cancels what was for that auction only, the close expires the DAY orders, continuous trading
 * triggers the waiting stops the uncross price reaches.
 */
final class TradingSchedule {
    private final OrderBook[] books;
    private final LiveOrders live;
    private final TradingPhases phases;
    private final CallAuction auction;
    private final StopTrigger stops;
    private final OrderExpiry expiry;

    TradingSchedule(LiveOrders live, TradingPhases phases, CallAuction auction, StopTrigger stops,
                    OrderExpiry expiry) {
        this.books = live.books;
        this.live = live;
        this.phases = phases;
        this.auction = auction;
        this.stops = stops;
        this.expiry = expiry;
    }

    /** The transition due at {@code deadline}: the first book (in symbol id order) whose deadline it is makes it. */
    void transitionDue(long deadline) {
        for (OrderBook book : books) {
            if (book.session.deadline() == deadline) {
                transition(book);
                return;
            }
        }
    }

    /** The book's next transition: an interruption's end (first at the same time), or a scheduled point. */
    private void transition(OrderBook book) {
        TradingSession session = book.session;
        if (session.interruptionEnd <= session.nextPoint) {
            session.interruptionEnd = TradingSession.NONE;
            endCall(book, TradingPhase.CONTINUOUS);
        } else {
            int kind = session.nextPointKind;
            session.scheduleAfter(session.nextPoint);
            switch (kind) {
                case TradingSession.OPENING_CALL -> enterPhase(book, TradingPhase.OPENING_CALL);
                case TradingSession.OPENING_UNCROSS -> endCall(book, TradingPhase.CONTINUOUS);
                case TradingSession.CLOSING_CALL -> enterPhase(book, TradingPhase.CLOSING_CALL);
                default -> endCall(book, TradingPhase.CLOSED);
            }
        }
        phases.refreshSessionDeadline();
    }

    /**
     * A call begins (or the book closes, without an uncross): a running interruption gives way to it; the closing
     * call takes in the At the Close orders waiting for it.
     */
    private void enterPhase(OrderBook book, TradingPhase phase) {
        book.session.interruptionEnd = TradingSession.NONE;
        phases.setPhase(book, phase);
        if (phase == TradingPhase.CLOSING_CALL) {
            for (Order order = book.atClose.head; order != null; order = book.atClose.head) {
                book.atClose.remove(order);
                auction.joinCall(order, true);
            }
        }
    }

    /**
     * A call ends: the uncross (not while the symbol is halted: its reopening auction comes with the resume), then the
     * next phase, and what was for this auction only goes: market orders left, At the Opening orders after the
     * opening, At the Close orders after the closing (CANCELED, AUCTION_ENDED); at the close the DAY orders expire as
     * at the end of the day. Continuing continuously, waiting stops the uncross price reaches trigger.
     */
    void endCall(OrderBook book, TradingPhase next) {
        TradingSession session = book.session;
        TradingPhase was = session.phase;
        if (was.isCall() && !book.halted) {
            auction.uncross(book);
        }
        session.interruptionEnd = TradingSession.NONE;
        phases.setPhase(book, next);
        cancelAuctionOnly(book.marketBuys.head, null);
        cancelAuctionOnly(book.marketSells.head, null);
        if (next == TradingPhase.CLOSED) {
            cancelAuctionOnly(book.atClose.head, null);
            cancelAuctionOnly(book.bids, TimeInForce.AT_THE_CLOSE);
            cancelAuctionOnly(book.asks, TimeInForce.AT_THE_CLOSE);
            expiry.expireDayOrders(book.bids);
            expiry.expireDayOrders(book.asks);
            expiry.expireDayOrders(book.stops.first(Side.BUY));
            expiry.expireDayOrders(book.stops.first(Side.SELL));
        } else if (was == TradingPhase.OPENING_CALL) {
            cancelAuctionOnly(book.bids, TimeInForce.AT_THE_OPENING);
            cancelAuctionOnly(book.asks, TimeInForce.AT_THE_OPENING);
        }
        if (next == TradingPhase.CONTINUOUS && book.stops.count != 0) {
            stops.triggerStops(book);
        }
    }

    /** Cancels every order of a queue (a {@code tif} of null: all of them, else those with that time in force). */
    private void cancelAuctionOnly(Order first, TimeInForce tif) {
        Order order = first;
        while (order != null) {
            Order next = order.next;
            if (tif == null || order.timeInForce == tif) {
                live.cancelLive(order, RejectReason.AUCTION_ENDED);
            }
            order = next;
        }
    }

    /** The side's resting orders with this time in force, in priority order, are canceled (AUCTION_ENDED). */
    private void cancelAuctionOnly(BookSide side, TimeInForce tif) {
        PriceLevel level = side.best;
        while (level != null) {
            PriceLevel worse = level.worse; // the level goes back to the pool if its last order goes
            cancelAuctionOnly(level.head, tif);
            level = worse;
        }
    }

    /**
     * The server's schedule and volatility settings of a symbol. A change of the schedule puts the symbol in the
     * phase the schedule gives for the command's time (leaving a call for continuous trading or the close ends the
     * call as at its uncross; without a schedule, continuous trading).
     */
    void setSymbolControl(Command command) {
        OrderBook book = live.bookOf(command.symbolId());
        SymbolControl control = SymbolControl.ofCode((int) command.price());
        if (book == null || control == null || command.price() != control.code()) {
            return;
        }
        TradingSession session = book.session;
        boolean changed = control == SymbolControl.TIME_ZONE ? session.zone(command.clientOrderId().toString())
            : session.set(control, command.quantity());
        if (!changed || control == SymbolControl.VOLATILITY_BAND_BASIS_POINTS
            || control == SymbolControl.INTERRUPTION_MILLIS) {
            return;
        }
        long nowNanos = command.timestampNanos();
        TradingPhase target = TradingPhase.CONTINUOUS;
        if (session.scheduled()) {
            session.scheduleAfter(nowNanos);
            target = session.scheduledPhaseAt(nowNanos);
        } else {
            session.nextPoint = TradingSession.NONE;
        }
        TradingPhase phase = session.phase;
        if (phase != target && !(phase == TradingPhase.VOLATILITY_CALL && target == TradingPhase.CONTINUOUS)) {
            if (phase.isCall() && !target.isCall()) {
                endCall(book, target);
            } else {
                enterPhase(book, target);
            }
        }
        phases.refreshSessionDeadline();
    }
}
