package io.fixmatch.it.crash;

import io.fixmatch.it.crash.Disagreement.Category;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The verdict of a crash-consistency run, from the clients' FIX logs alone (each {@link TraderLog} ends with the
 * server's answers to an OrderStatusRequest for every ClOrdID the client sent):
 * <ul>
 *   <li>for every ClOrdID, the client's last report before the server's status answer agrees with that answer
 *       (OrdStatus, CumQty, LeavesQty; an id no longer live at the server must be one the client was told is filled,
 *       canceled, rejected or replaced). The answer is the order as it stood when the server answered: what the
 *       cluster's timers did to it afterwards (a call's uncross, a GTD expiry), reported after the answer, is
 *       later news, not a disagreement; any other report after it is one. A request the client never heard of
 *       again must be unknown to the server and
 *       refused at the session level or never sent; otherwise it was lost on the way in (the server does not
 *       know it) or its report was lost (the server acted on it);</li>
 *   <li>no ClOrdID acknowledged twice; no ExecID with two different contents, across all clients;</li>
 *   <li>each session's sequence numbers continued across restarts, without a gap the client could not fill, and
 *       the client's engine rejected nothing the server sent;</li>
 *   <li>per symbol, the quantity bought equals the quantity sold over all fills.</li>
 * </ul>
 */
final class CrashChecker {
    private CrashChecker() {
    }

    static List<Disagreement> check(List<TraderLog> logs) {
        List<Disagreement> found = new ArrayList<>();
        for (TraderLog log : logs) {
            checkOrders(log, found);
            for (String problem : log.sequenceProblems()) {
                found.add(new Disagreement(Category.SEQUENCE_BROKEN, log.compId(), null, problem));
            }
            for (String reject : log.rejectsSent()) {
                found.add(new Disagreement(Category.PROTOCOL_ERROR, log.compId(), null, "the client sent " + reject));
            }
        }
        checkExecIds(logs, found);
        checkFillsBalance(logs, found);
        return found;
    }

    /**
     * How many reports reached their clients after their orders' status answers (what the timers did since: these
     * runs' summaries print it, as the race it was).
     */
    static int reportsAfterTheirAnswers(List<TraderLog> logs) {
        int count = 0;
        for (TraderLog log : logs) {
            for (ClientView view : fold(log.reports()).values()) {
                count += view.afterAnswer.size();
            }
        }
        return count;
    }

    /** What the client was told about one ClOrdID, folded from its reports in the server's order. */
    private static final class ClientView {
        /** The last execution naming this ClOrdID (not a status answer, not the reject of a duplicate). */
        Report last;
        /** The OrderCancelReject answering a request with this ClOrdID. */
        Report cancelReject;
        /** "replaced by X" / "canceled by X" when a later report took the order away from this ClOrdID. */
        String endedBy;
        final List<Report> acks = new ArrayList<>();
        /** The server's answer to the status request, the last one if several. */
        Report statusAnswer;
        /** Executions after the status answer (in the server's order): what timers did since (held apart). */
        final List<Report> afterAnswer = new ArrayList<>();

        boolean answered() {
            return last != null || cancelReject != null || endedBy != null;
        }

        boolean live() {
            return endedBy == null && last != null && (last.ordStatus() == '0' || last.ordStatus() == '1');
        }

        String describe() {
            if (endedBy != null) {
                return endedBy;
            }
            if (last != null) {
                return "OrdStatus " + last.ordStatus() + " CumQty " + last.cumQty() + " LeavesQty " + last.leavesQty()
                    + " (seq " + last.seqNum() + ", " + (last.execId() == null ? "" : "ExecID " + last.execId() + ", ")
                    + "ExecType " + last.execType() + ")";
            }
            return cancelReject != null ? "cancel/replace rejected" : "nothing";
        }
    }

    private static Map<String, ClientView> fold(List<Report> reports) {
        Map<String, ClientView> views = new HashMap<>();
        for (Report report : reports) {
            ClientView view = views.computeIfAbsent(report.clOrdId(), id -> new ClientView());
            if (report.isStatusAnswer()) {
                if (!isRefusal(report)) {
                    List<Report> between = new ArrayList<>(view.afterAnswer); // before this answer: applied
                    view.afterAnswer.clear();
                    between.forEach(earlier -> apply(views, view, earlier));
                    view.statusAnswer = report;
                } else if (view.statusAnswer == null || isRefusal(view.statusAnswer)) {
                    view.statusAnswer = report; // asked again later; said if never answered
                }
                continue;
            }
            if (view.statusAnswer != null && !isRefusal(view.statusAnswer)) {
                view.afterAnswer.add(report); // the answer was the order as it stood: compared with it as it was
                continue;
            }
            apply(views, view, report);
        }
        return views;
    }

    /** A report, in the server's order, folded into what its ClOrdID's client was told. */
    private static void apply(Map<String, ClientView> views, ClientView view, Report report) {
        if (report.msgType() == Report.CANCEL_REJECT) {
            view.cancelReject = report;
            return;
        }
        switch (report.execType()) {
            case '0' -> {
                view.acks.add(report);
                view.last = report;
            }
            case '8' -> {
                if (view.acks.isEmpty()) { // else: the reject of a duplicate; the order stands
                    view.last = report;
                }
            }
            case '4', '5' -> {
                view.last = report;
                if (report.origClOrdId() != null && !report.origClOrdId().equals(report.clOrdId())) {
                    views.computeIfAbsent(report.origClOrdId(), id -> new ClientView()).endedBy =
                        (report.execType() == '4' ? "canceled by " : "replaced by ") + report.clOrdId();
                }
            }
            default -> view.last = report;
        }
    }

    /**
     * What the cluster's timers do to a resting order with no request: a call's uncross fills it (a stop it triggers
     * too), a GTD or day order expires. The status queries come after the last request, so only these may follow.
     */
    private static boolean isTimersWork(Report report) {
        return report.msgType() == Report.EXECUTION_REPORT && (report.execType() == 'F' || report.execType() == 'C');
    }

    /** The server's status answer: known (live, with its state), unknown, or a refusal (no answer at all). */
    private static boolean isRefusal(Report answer) {
        return answer.ordStatus() == '8' && answer.text() != null
            && (answer.text().contains("overloaded") || answer.text().contains("could not be recorded")
            || answer.isClusterUnavailable());
    }

    private static boolean knownAtServer(Report answer) {
        return !(answer.ordStatus() == '8' && "NONE".equals(answer.orderId()));
    }

    private static String describeAnswer(Report answer) {
        return (knownAtServer(answer) ? "OrdStatus " + answer.ordStatus() + " CumQty " + answer.cumQty()
            + " LeavesQty " + answer.leavesQty() + " OrderID " + answer.orderId() : "unknown order")
            + " (seq " + answer.seqNum() + ")";
    }

    private static void checkOrders(TraderLog log, List<Disagreement> found) {
        String session = log.compId();
        Map<String, ClientView> views = fold(log.reports());
        for (Request request : log.requests()) {
            String id = request.clOrdId();
            ClientView view = views.getOrDefault(id, new ClientView());
            if (view.acks.stream().map(Report::execId).distinct().count() > 1) {
                found.add(new Disagreement(Category.ORDER_ENTERED_TWICE, session, id, view.acks.size()
                    + " acknowledgements: " + view.acks.stream().map(Report::describe).toList()));
            }
            Report answer = view.statusAnswer;
            if (answer == null || isRefusal(answer)) {
                found.add(new Disagreement(Category.NO_STATUS_ANSWER, session, id,
                    answer == null ? "no answer to the status request" : "refused: " + answer.text()));
                continue;
            }
            boolean known = knownAtServer(answer);
            String both = request.kind() + "; client: " + view.describe() + "; server: " + describeAnswer(answer);
            List<String> unexplained = view.afterAnswer.stream().filter(report -> !isTimersWork(report))
                .map(Report::describe).toList();
            if (!unexplained.isEmpty()) {
                found.add(new Disagreement(Category.STATUS_MISMATCH, session, id, both + "; after the answer, "
                    + unexplained + " (only a timer's uncross or expiry may follow it: no request was left)"));
            }
            if (!view.answered()) {
                unanswered(log, request, views, known, both, found);
            } else if (view.live()) {
                Report last = view.last;
                if (!known) {
                    found.add(new Disagreement(Category.REPORT_LOST_AFTER_CRASH, session, id, both
                        + " (what ended it at the server never reached the client)"));
                } else if (answer.cumQty() > last.cumQty()) {
                    found.add(new Disagreement(Category.REPORT_LOST_AFTER_CRASH, session, id, both
                        + " (fills never reached the client)"));
                } else if (answer.cumQty() != last.cumQty() || answer.leavesQty() != last.leavesQty()
                    || answer.ordStatus() != last.ordStatus()) {
                    found.add(new Disagreement(Category.STATUS_MISMATCH, session, id, both));
                }
            } else if (known) {
                found.add(new Disagreement(Category.STATUS_MISMATCH, session, id, both
                    + " (the client was told it is over; the server has it live)"));
            }
        }
    }

    /** A request the client never heard of again. */
    private static void unanswered(TraderLog log, Request request, Map<String, ClientView> views, boolean known,
                                   String both, List<Disagreement> found) {
        String session = log.compId();
        String id = request.clOrdId();
        String reject = log.rejectOf(request);
        if (reject != null || !log.wentOnWire(id)) {
            if (known) {
                found.add(new Disagreement(Category.STATUS_MISMATCH, session, id, both + " (the request was "
                    + (reject != null ? "rejected: " + reject : "never sent") + ", yet the server has the order)"));
            }
            return;
        }
        if (known) {
            found.add(new Disagreement(Category.REPORT_LOST_AFTER_CRASH, session, id, both
                + " (the server acted on the request; the client never heard)"));
            return;
        }
        if (request.kind() == Request.Kind.NEW_ORDER) {
            found.add(new Disagreement(Category.ORDER_LOST_ON_THE_WAY_IN, session, id, both
                + " (sent, never answered, unknown to the server)"));
            return;
        }
        // A cancel or replace: did it take effect? The order it names tells.
        ClientView target = views.getOrDefault(request.origClOrdId(), new ClientView());
        Report targetAnswer = target.statusAnswer;
        boolean targetLiveAtServer = targetAnswer != null && knownAtServer(targetAnswer);
        if (target.live() && targetLiveAtServer && targetAnswer.cumQty() == target.last.cumQty()
            && targetAnswer.leavesQty() == target.last.leavesQty()) {
            found.add(new Disagreement(Category.ORDER_LOST_ON_THE_WAY_IN, session, id, both + " (sent, never answered; "
                + request.origClOrdId() + " is live and unchanged at the server and the client)"));
        } else if (target.live() && !targetLiveAtServer) {
            return; // the order it names is reported lost already: one loss, one disagreement
        } else {
            found.add(new Disagreement(Category.REQUEST_UNANSWERED, session, id, both + " (sent, never answered; "
                + request.origClOrdId() + ": client " + target.describe() + ", server "
                + (targetAnswer == null ? "no answer" : describeAnswer(targetAnswer)) + ")"));
        }
    }

    /** One ExecID, one content, across all sessions (resends repeat it unchanged). */
    private static void checkExecIds(List<TraderLog> logs, List<Disagreement> found) {
        Map<String, String> seen = new HashMap<>();
        Map<String, String> seenBy = new HashMap<>();
        for (TraderLog log : logs) {
            for (Report report : log.reports()) {
                if (!report.isExecution() || report.execId() == null) {
                    continue;
                }
                String content = report.content();
                String previous = seen.putIfAbsent(report.execId(), content);
                String previousSession = seenBy.putIfAbsent(report.execId(), log.compId());
                if (previous != null && (!previous.equals(content) || !previousSession.equals(log.compId()))) {
                    found.add(new Disagreement(Category.EXEC_ID_REUSED, log.compId(), report.clOrdId(), "ExecID "
                        + report.execId() + " was " + previousSession + " " + previous + ", now " + content));
                }
            }
        }
    }

    /** Every trade is a buy and a sell of the same quantity: per symbol the fills must balance. */
    private static void checkFillsBalance(List<TraderLog> logs, List<Disagreement> found) {
        Map<String, long[]> bySymbol = new TreeMap<>();
        Map<String, Boolean> counted = new HashMap<>();
        for (TraderLog log : logs) {
            for (Report report : log.reports()) {
                if (report.isFill() && counted.putIfAbsent(report.execId(), true) == null) {
                    long[] boughtSold = bySymbol.computeIfAbsent(report.symbol(), symbol -> new long[2]);
                    boughtSold[report.side() == '1' ? 0 : 1] += report.lastQty();
                }
            }
        }
        bySymbol.forEach((symbol, boughtSold) -> {
            if (boughtSold[0] != boughtSold[1]) {
                found.add(new Disagreement(Category.FILLS_UNBALANCED, "all sessions", null, symbol + ": bought "
                    + boughtSold[0] + ", sold " + boughtSold[1] + " in the fills the clients received"));
            }
        });
    }
}
