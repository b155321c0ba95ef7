package io.fixmatch.fix.app;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.loop.CommandTrace;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.codec.MessageBody;
import io.fixmatch.fix.session.SeenClientOrderIds;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes an engine event as the body of the FIX 4.4 message that reports it: an ExecutionReport (35=8) or, for
 * refused cancels and replaces, an OrderCancelReject (35=9). One instance per thread that sends them; {@link #of}
 * points it at the next event, {@link #traced} adds the latency trace tags (7101-7107, docs/FIX.md) to it,
 * {@link #copyOf} makes it a drop copy.
 */
public final class EventReportBody implements MessageBody {
    /** Extra decimals of AvgPx beyond the symbol's price scale. */
    private static final int AVG_PX_EXTRA_DIGITS = 4;
    private static final byte[] NONE = {'N', 'O', 'N', 'E'};
    /** ExecRestatementReason(378) 99, Other: the restatement of a stop order's trigger. */
    private static final long OTHER_RESTATEMENT = 99;
    /**
     * ExecIDs of refusals the engine never saw: "R", the time this class was loaded (base 36), "-", a count shared
     * by all sessions, so that they are unique across sessions and server restarts, as FIX requires of ExecID.
     */
    private static final String REFUSAL_EXEC_ID_PREFIX = "R" + Long.toString(System.currentTimeMillis(), 36) + "-";
    private static final AtomicLong REFUSALS = new AtomicLong();

    private final SymbolTable symbols;
    private final byte[] fallbackSymbol = new byte[64];
    private final ClientOrderIdFields ids = new ClientOrderIdFields();
    private final RiskRejectText riskText = new RiskRejectText();
    private int fallbackSymbolLength;
    private ExecutionEvent event;
    private CommandTrace trace;
    private long ringTakenNanos;
    private long writeNanos;
    private byte[] copyOf;
    private long refusalNumber;

    public EventReportBody(SymbolTable symbols) {
        this.symbols = symbols;
    }

    /** Points at the event to write; returns this. */
    public EventReportBody of(ExecutionEvent value) {
        event = value;
        fallbackSymbolLength = 0;
        trace = null;
        copyOf = null;
        refusalNumber = 0;
        return this;
    }

    /** A new number for the ExecID of a refusal the engine never saw (unique across sessions and restarts). */
    public static long nextRefusalNumber() {
        return REFUSALS.incrementAndGet();
    }

    /**
     * Until the next {@link #of}: the event is a refusal the engine never saw, whose ExecID carries this
     * {@link #nextRefusalNumber number}: the original and each drop copy of it name the same ExecID.
     */
    public EventReportBody refusal(long number) {
        refusalNumber = number;
        return this;
    }

    /** The refusal number set by {@link #refusal} (0: none). */
    public long refusalNumber() {
        return refusalNumber;
    }

    /** The requested Symbol set by {@link #withRequestedSymbol}: its bytes (see {@link #requestedSymbolLength}). */
    public byte[] requestedSymbol() {
        return fallbackSymbol;
    }

    public int requestedSymbolLength() {
        return fallbackSymbolLength;
    }

    /**
     * Until the next {@link #of}: the report is a drop copy of one sent to the session {@code clientCompId}: it
     * carries DeliverToCompID(128) = that CompID (a header field, written first, right after the standard header)
     * and, on an ExecutionReport, CopyMsgIndicator(797)=Y (FIX 4.4 defines it on no OrderCancelReject).
     */
    public EventReportBody copyOf(byte[] clientCompId) {
        copyOf = clientCompId;
        return this;
    }

    /**
     * The report carries the causing command's stamps and {@code takenNanos} (when the event left the outbound
     * ring); TRACE_WRITE is stamped as the body is written. Until the next {@link #of}.
     */
    public EventReportBody traced(CommandTrace commandTrace, long takenNanos) {
        trace = commandTrace;
        ringTakenNanos = takenNanos;
        return this;
    }

    /** The {@link SeenClientOrderIds#hash} of the ClOrdID(11) this report carries. */
    public long clientOrderIdHash() {
        return ids.hash(event.clientOrderId());
    }

    /** The TRACE_WRITE stamp of the last traced body written. */
    public long writeNanos() {
        return writeNanos;
    }

    /** The Symbol to echo when the event's symbol id is unknown (the request named a symbol we do not list). */
    public EventReportBody withRequestedSymbol(byte[] buffer, int offset, int length) {
        fallbackSymbolLength = Math.min(length, fallbackSymbol.length);
        System.arraycopy(buffer, offset, fallbackSymbol, 0, fallbackSymbolLength);
        return this;
    }

    public int msgType() {
        if (event.type() == EventType.MASS_CANCEL_REPORT) {
            return MsgTypes.ORDER_MASS_CANCEL_REPORT;
        }
        return isCancelReject(event.type()) ? MsgTypes.ORDER_CANCEL_REJECT : MsgTypes.EXECUTION_REPORT;
    }

    @Override
    public void writeBody(FixWriter w) {
        if (copyOf != null) {
            w.field(FixTags.DELIVER_TO_COMP_ID, copyOf);
        }
        if (event.type() == EventType.MASS_CANCEL_REPORT) {
            writeMassCancelReport(w);
        } else if (isCancelReject(event.type())) {
            writeCancelReject(w);
        } else {
            writeExecutionReport(w);
            if (copyOf != null) {
                w.field(FixTags.COPY_MSG_INDICATOR, 'Y');
            }
        }
        if (trace != null) {
            writeTrace(w);
        }
    }

    /** The user-defined trace tags, in stage order; the last stamp is taken as late as the message allows. */
    private void writeTrace(FixWriter w) {
        w.field(FixTags.TRACE_SOCKET_READ, trace.socketReadNanos())
            .field(FixTags.TRACE_RING_OFFER, trace.ringOfferNanos())
            .field(FixTags.TRACE_MATCH_START, trace.matchStartNanos())
            .field(FixTags.TRACE_JOURNAL_DONE, trace.journalDoneNanos())
            .field(FixTags.TRACE_MATCH_DONE, trace.matchDoneNanos())
            .field(FixTags.TRACE_RING_TAKEN, ringTakenNanos);
        writeNanos = System.nanoTime();
        w.field(FixTags.TRACE_WRITE, writeNanos);
    }

    private void writeExecutionReport(FixWriter w) {
        ExecutionEvent e = event;
        boolean knownSymbol = symbols.contains(e.symbolId());
        int scale = knownSymbol ? symbols.priceScale(e.symbolId()) : 0;
        orderId(w, e.orderId());
        if (!e.clientOrderId().isEmpty()) { // a mass status answer that found no order has none
            ids.write(w, FixTags.CL_ORD_ID, e.clientOrderId());
        }
        if (e.type() == EventType.MASS_STATUS) {
            ids.write(w, FixTags.MASS_STATUS_REQ_ID, e.origClientOrderId());
            w.field(FixTags.TOT_NUM_REPORTS, e.reportCount());
            if (e.ordinal() + 1 >= e.reportCount()) { // the answers are the request's only events, in order
                w.field(FixTags.LAST_RPT_REQUESTED, 'Y');
            }
        } else if (!e.origClientOrderId().isEmpty()) {
            ids.write(w, FixTags.ORIG_CL_ORD_ID, e.origClientOrderId());
        }
        execId(w, e);
        w.field(FixTags.EXEC_TYPE, execType(e.type()))
            .field(FixTags.ORD_STATUS, ordStatus(e));
        if (e.type() == EventType.TRIGGERED) {
            w.field(FixTags.EXEC_RESTATEMENT_REASON, OTHER_RESTATEMENT);
        }
        symbol(w, knownSymbol);
        w.field(FixTags.SIDE, e.side() == Side.SELL ? '2' : '1');
        if (e.orderType() != null) {
            w.field(FixTags.ORD_TYPE, ordType(e.orderType()));
        }
        if (e.timeInForce() != null) {
            w.field(FixTags.TIME_IN_FORCE, timeInForce(e));
        }
        if (e.expireTimeNanos() != 0) {
            w.timestamp(FixTags.EXPIRE_TIME, e.expireTimeNanos());
        }
        w.field(FixTags.ORDER_QTY, e.orderQuantity());
        if (e.orderType() != null && e.orderType().hasLimitPrice() && knownSymbol && e.price() > 0) {
            w.decimal(FixTags.PRICE, e.price(), scale);
        }
        if (e.stopPrice() > 0 && knownSymbol) {
            w.decimal(FixTags.STOP_PX, e.stopPrice(), scale);
        }
        if (e.type() == EventType.FILL) {
            w.field(FixTags.LAST_QTY, e.lastQuantity()).decimal(FixTags.LAST_PX, e.lastPrice(), scale);
        }
        w.field(FixTags.LEAVES_QTY, e.leavesQuantity())
            .field(FixTags.CUM_QTY, e.cumQuantity())
            .quotient(FixTags.AVG_PX, e.cumNotional(), e.cumQuantity(), scale, AVG_PX_EXTRA_DIGITS)
            .timestamp(FixTags.TRANSACT_TIME, e.timestampNanos());
        if (e.rejectReason() != RejectReason.NONE) {
            if (e.type() == EventType.REJECTED) {
                w.field(FixTags.ORD_REJ_REASON, ordRejReason(e.rejectReason()));
            }
            w.field(FixTags.TEXT, riskText.of(e, scale));
        }
    }

    /**
     * OrderMassCancelReport (35=r): the request's ClOrdID, an OrderID (the report's exec id), the request type echoed
     * (1 by symbol, 7 all), the response (the same; 0 refused, with Text and, for an unknown symbol,
     * MassCancelRejectReason 1), the orders it cancels (their ExecutionReports follow), Symbol and Side as asked.
     */
    private void writeMassCancelReport(FixWriter w) {
        ExecutionEvent e = event;
        boolean bySymbol = e.symbolId() != Command.ALL_SYMBOLS;
        boolean refused = e.status() == OrderStatus.REJECTED;
        char requestType = bySymbol ? '1' : '7';
        ids.write(w, FixTags.CL_ORD_ID, e.clientOrderId());
        orderId(w, e.execId());
        w.field(FixTags.MASS_CANCEL_REQUEST_TYPE, requestType)
            .field(FixTags.MASS_CANCEL_RESPONSE, refused ? '0' : requestType);
        if (refused && e.rejectReason() == RejectReason.UNKNOWN_SYMBOL) {
            // FIX 4.4 types 532 as a char, so its "99 Other" fails a standard FIX 4.4 dictionary (QuickFIX/J:
            // Reject 373=6): other refusals carry no 532, only the Text
            w.field(FixTags.MASS_CANCEL_REJECT_REASON, '1');
        }
        w.field(FixTags.TOTAL_AFFECTED_ORDERS, e.orderQuantity());
        if (bySymbol) {
            symbol(w, symbols.contains(e.symbolId()));
        }
        if (e.side() != null) {
            w.field(FixTags.SIDE, e.side() == Side.SELL ? '2' : '1');
        }
        if (refused) {
            w.field(FixTags.TEXT, e.rejectReason().text());
        }
        w.timestamp(FixTags.TRANSACT_TIME, e.timestampNanos());
    }

    private void writeCancelReject(FixWriter w) {
        ExecutionEvent e = event;
        orderId(w, e.orderId());
        ids.write(w, FixTags.CL_ORD_ID, e.clientOrderId());
        ids.write(w, FixTags.ORIG_CL_ORD_ID, e.origClientOrderId());
        w.field(FixTags.ORD_STATUS, ordStatus(e))
            .field(FixTags.CXL_REJ_RESPONSE_TO, e.type() == EventType.CANCEL_REJECTED ? '1' : '2')
            .field(FixTags.CXL_REJ_REASON, cxlRejReason(e.rejectReason()))
            .field(FixTags.TEXT, riskText.of(e, symbols.contains(e.symbolId()) ? symbols.priceScale(e.symbolId())
                : 0))
            .timestamp(FixTags.TRANSACT_TIME, e.timestampNanos());
    }

    private static void orderId(FixWriter w, long orderId) {
        if (orderId == 0) {
            w.field(FixTags.ORDER_ID, NONE);
        } else {
            w.field(FixTags.ORDER_ID, orderId);
        }
    }

    /**
     * The engine's exec id; 0 for a status answer (as FIX prescribes) and, for a refusal the engine never saw, a
     * gateway id starting with "R" that cannot collide with the engine's numeric ids.
     */
    private void execId(FixWriter w, ExecutionEvent e) {
        if (e.execId() != 0 || e.type() == EventType.STATUS || e.type() == EventType.MASS_STATUS) {
            w.field(FixTags.EXEC_ID, e.execId());
        } else {
            w.field(FixTags.EXEC_ID, REFUSAL_EXEC_ID_PREFIX, refusalNumber != 0 ? refusalNumber : nextRefusalNumber());
        }
    }

    private void symbol(FixWriter w, boolean knownSymbol) {
        if (knownSymbol) {
            w.field(FixTags.SYMBOL, symbols.name(event.symbolId()));
        } else if (fallbackSymbolLength > 0) {
            w.field(FixTags.SYMBOL, fallbackSymbol, 0, fallbackSymbolLength);
        } else {
            w.field(FixTags.SYMBOL, NONE);
        }
    }

    private static boolean isCancelReject(EventType type) {
        return type == EventType.CANCEL_REJECTED || type == EventType.REPLACE_REJECTED;
    }

    private static char execType(EventType type) {
        return switch (type) {
            case ACCEPTED -> '0';
            case REJECTED -> '8';
            case FILL -> 'F';
            case CANCELED -> '4';
            case REPLACED -> '5';
            case STATUS, MASS_STATUS -> 'I';
            case EXPIRED -> 'C';
            case TRIGGERED -> 'D'; // FIX 4.4 has no "triggered" (5.0's L): a restatement, 378=99 and a Text
            case CANCEL_REJECTED, REPLACE_REJECTED, MASS_CANCEL_REPORT -> throw new IllegalArgumentException(
                type.name());
        };
    }

    private static char ordType(OrderType type) {
        return switch (type) {
            case MARKET -> '1';
            case LIMIT -> '2';
            case STOP -> '3';
            case STOP_LIMIT -> '4';
        };
    }

    private static char ordStatus(ExecutionEvent e) {
        return switch (e.status()) {
            case NEW -> '0';
            case PARTIALLY_FILLED -> '1';
            case FILLED -> '2';
            case CANCELED -> '4';
            case REJECTED -> '8';
            case EXPIRED -> 'C';
        };
    }

    private static char timeInForce(ExecutionEvent e) {
        return switch (e.timeInForce()) {
            case DAY -> '0';
            case GTC -> '1';
            case IOC -> '3';
            case FOK -> '4';
            case GTD -> '6';
            case AT_THE_OPENING -> '2';
            case AT_THE_CLOSE -> '7';
        };
    }

    /** FIX CxlRejReason (102): 1 unknown order, 6 duplicate ClOrdID received, 99 other. */
    private static long cxlRejReason(RejectReason reason) {
        return switch (reason) {
            case UNKNOWN_ORDER -> 1;
            case DUPLICATE_CLIENT_ORDER_ID -> 6;
            default -> 99;
        };
    }

    /**
     * FIX OrdRejReason (103): 3 (order exceeds limit) for the session's risk limits; 11 (unsupported order
     * characteristic) for order attributes the order's type or time in force does not take; 99 for its kill switch.
     */
    private static long ordRejReason(RejectReason reason) {
        return switch (reason) {
            case UNKNOWN_SYMBOL -> 1;
            case DUPLICATE_CLIENT_ORDER_ID -> 6;
            case QUANTITY_NOT_POSITIVE, QUANTITY_TOO_LARGE, QUANTITY_NOT_LOT_MULTIPLE -> 13;
            case RISK_ORDER_QUANTITY, RISK_NOTIONAL, RISK_NO_REFERENCE_PRICE, RISK_OPEN_ORDERS, RISK_PRICE_COLLAR -> 3;
            case BOOK_FULL, JOURNAL_UNAVAILABLE, SERVER_BUSY, CLUSTER_UNAVAILABLE -> 0;
            case MARKET_CLOSED -> 2;
            case INVALID_STOP_PRICE, INVALID_MAX_FLOOR, INVALID_MIN_QUANTITY, INVALID_POST_ONLY, INVALID_EXPIRE_TIME,
                 EXPIRE_TIME_NOT_GTD -> 11;
            default -> 99;
        };
    }
}
