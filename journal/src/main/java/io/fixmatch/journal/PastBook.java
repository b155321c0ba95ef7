package io.fixmatch.journal;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;

/**
 * One symbol's book as it was at a past instant of the journal ({@link BookAt}), and where that came from.
 *
 * @param symbol           the symbol
 * @param priceScale       its price scale: a price of {@code p} units is {@code p / 10^scale}
 * @param requested        the instant asked for
 * @param throughIndex     the journal records at or before this index are in the book (for a time: the last record
 *                         before the first command stamped later)
 * @param lastCommandIndex the journal index of the last command at or before the instant, {@link #NO_COMMAND} if
 *                         none (the books were empty)
 * @param lastCommandNanos that command's journal timestamp (nanoseconds since the epoch, UTC)
 * @param snapshot         the snapshot the rebuild started from, null if it replayed the journal from its start
 * @param snapshotIndex    the journal index that snapshot covers, {@link #NO_COMMAND} without one
 * @param replayedCommands the journal commands replayed after the snapshot (or from the start)
 * @param halted           whether the operator had halted trading in the symbol
 * @param bids             the resting buy orders, in priority order (best price first, then time)
 * @param asks             the resting sell orders, in priority order
 */
public record PastBook(String symbol, int priceScale, JournalInstant requested, long throughIndex,
                       long lastCommandIndex, long lastCommandNanos, Path snapshot, long snapshotIndex,
                       long replayedCommands, boolean halted, List<Order> bids, List<Order> asks) {

    /** No command (or no snapshot) at or before the instant. */
    public static final long NO_COMMAND = -1;

    public PastBook {
        bids = List.copyOf(bids);
        asks = List.copyOf(asks);
    }

    /**
     * A resting order.
     *
     * @param orderId  the venue's OrderID
     * @param owner    the journal's owner id (the k-th session is owner k)
     * @param session  the owner's session (its CompID), {@code #k} if the tables do not name it
     * @param clOrdId  the client's ClOrdID of the order (its latest, after replaces)
     * @param tif      DAY, GTC, ...
     * @param price    the limit price in units of the symbol's scale
     * @param quantity the order quantity (after replaces)
     * @param leaves   what is still open
     * @param filled   what has traded
     */
    public record Order(long orderId, int owner, String session, String clOrdId, String tif, long price,
                        long quantity, long leaves, long filled) {
    }

    /** The last command's journal timestamp in ISO-8601 UTC to the nanosecond; null if there was none. */
    public String lastCommandTime() {
        return lastCommandIndex == NO_COMMAND ? null : JournalDump.utc(lastCommandNanos);
    }

    /** A price of this symbol as a decimal, at its scale ({@code 15025} at scale 2: {@code 150.25}). */
    public String decimal(long price) {
        return BigDecimal.valueOf(price, priceScale).toPlainString();
    }
}
