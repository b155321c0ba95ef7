package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;

/**
 * What acts on many of an owner's live orders at once, through its owner's list ({@link OwnerOrders}):
 * cancel-all (cancel-on-disconnect), the kill switch, the order mass cancel and the order mass status request.
 */
final class MassActions {
    private final LiveOrders live;
    private final PreTradeRisk risk;
    private final EventPublisher publisher;
    private final EngineView view;

    MassActions(LiveOrders live, PreTradeRisk risk, EventPublisher publisher, EngineView view) {
        this.live = live;
        this.risk = risk;
        this.publisher = publisher;
        this.view = view;
    }

    void cancelAllForOwner(int owner) {
        cancelAllForOwner(owner, RejectReason.NONE);
    }

    /** Every live order of the owner, highest order id first, each with an unsolicited CANCELED. */
    private void cancelAllForOwner(int owner, RejectReason reason) {
        for (Order order = live.ownerOrders.first(owner); order != null; order = live.ownerOrders.first(owner)) {
            live.cancelLive(order, reason);
        }
    }

    /** Engaging cancels the session's live orders; from then its new orders and replaces are refused. */
    void killSwitch(int owner, boolean engaged) {
        if (!OwnerOrders.isValidOwner(owner)) {
            return;
        }
        risk.killSwitch(owner, engaged);
        view.killSwitch(owner, engaged);
        if (engaged) {
            cancelAllForOwner(owner, RejectReason.KILL_SWITCH_ENGAGED);
        }
    }

    /**
     * An order mass cancel: first its report with the number of orders it cancels, then each of them CANCELED (own
     * client order id, reason MASS_CANCELED), highest order id first, as cancel-all. An owner outside the range or a
     * symbol the engine does not have: the report refused (status REJECTED, the reason), nothing canceled.
     */
    void massCancel(Command command) {
        int owner = command.owner();
        RejectReason reason = !OwnerOrders.isValidOwner(owner) ? RejectReason.INVALID_OWNER
            : command.symbolId() != Command.ALL_SYMBOLS && live.bookOf(command.symbolId()) == null
            ? RejectReason.UNKNOWN_SYMBOL : RejectReason.NONE;
        if (reason != RejectReason.NONE) {
            publisher.refused(command, reason);
            return;
        }
        int count = 0;
        for (Order order = live.ownerOrders.first(owner); order != null; order = order.ownerNext) {
            if (matchesMassRequest(order, command.symbolId(), command.massCancelSide())) {
                count++;
            }
        }
        publisher.massCancelReport(command, count);
        Order order = live.ownerOrders.first(owner);
        while (order != null) {
            Order next = order.ownerNext;
            if (matchesMassRequest(order, command.symbolId(), command.massCancelSide())) {
                live.cancelLive(order, RejectReason.MASS_CANCELED);
            }
            order = next;
        }
    }

    /**
     * A mass status request: one MASS_STATUS per live order of the owner (of the symbol, if it names one), most
     * recently accepted first, each with the number of reports; none live: one saying so. Changes nothing.
     */
    void massStatus(Command command) {
        int owner = command.owner();
        int symbolId = command.symbolId();
        if (!OwnerOrders.isValidOwner(owner)) {
            publisher.refused(command, RejectReason.INVALID_OWNER);
            return;
        }
        int count = 0;
        for (Order order = live.ownerOrders.first(owner); order != null; order = order.ownerNext) {
            if (matchesMassRequest(order, symbolId, null)) {
                count++;
            }
        }
        if (count == 0) {
            publisher.noLiveOrders(command);
            return;
        }
        for (Order order = live.ownerOrders.first(owner); order != null; order = order.ownerNext) {
            if (matchesMassRequest(order, symbolId, null)) {
                publisher.massStatus(order, command.clientOrderId(), count);
            }
        }
    }

    private static boolean matchesMassRequest(Order order, int symbolId, Side side) {
        return (symbolId == Command.ALL_SYMBOLS || order.book.symbolId == symbolId)
            && (side == null || order.side == side);
    }
}
