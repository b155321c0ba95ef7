package io.fixmatch.engine.matching;

/**
 * The price an auction uncrosses at (docs/MATCHING.md, "The uncross"): among every price on the tick from the lowest
 * to the highest limit price in the book, the one that executes the most, then leaves the least imbalance, then is
 * nearest the reference price, then the lowest. Market orders count at every price. With no limit order at all, the
 * reference price is the only candidate. Nothing executes (volume 0): no price.
 *
 * <p>Exact without looking at every tick: the volume a buyer and a seller would trade at a price changes only at the
 * book's limit prices, so between two neighbouring limit prices every price has the same volume and imbalance, and
 * the best of them is the one nearest the reference price. One pass over both sides' levels in ascending price,
 * allocation-free; for the call phases only (an indicative price after each command of a call, the uncross).
 */
final class AuctionPrice {
    long price;
    long volume;
    long imbalance;
    private long bestDistance;

    /**
     * Computes the uncross of {@code book}, with {@code marketBuys} and {@code marketSells} of market orders and
     * {@code reference} (0: none); afterwards {@link #price} (0: none), {@link #volume} and {@link #imbalance}.
     */
    AuctionPrice compute(OrderBook book, long marketBuys, long marketSells, long reference) {
        price = 0;
        volume = 0;
        imbalance = 0;
        bestDistance = Long.MAX_VALUE;
        long tick = book.spec.tickSize();
        long totalBids = marketBuys;
        for (PriceLevel level = book.bids.best; level != null; level = level.worse) {
            totalBids += level.totalQuantity;
        }
        PriceLevel bid = book.bids.worst; // ascending prices: bids from the worst (lowest) up
        PriceLevel ask = book.asks.best;  // asks from the best (lowest) up
        if (bid == null && ask == null) {
            if (reference > 0) {
                consider(reference, marketBuys, marketSells, reference);
            }
            return finish();
        }
        long bidsBelow = 0; // bid quantity at prices below the current one
        long asksUpTo = marketSells; // ask quantity at or below the current price, market sells included
        long previous = 0;
        boolean first = true;
        while (bid != null || ask != null) {
            long p = bid == null ? ask.price : ask == null ? bid.price : Math.min(bid.price, ask.price);
            long bidsHere = 0;
            if (bid != null && bid.price == p) {
                bidsHere = bid.totalQuantity;
                bid = bid.better;
            }
            long asksBefore = asksUpTo;
            if (ask != null && ask.price == p) {
                asksUpTo += ask.totalQuantity;
                ask = ask.worse;
            }
            long buyAtP = totalBids - bidsBelow;
            if (!first && p - previous > tick) {
                // The prices strictly between the previous limit price and this one: buyers as at p, sellers as at
                // the previous price; the nearest the reference is the best of them.
                long low = previous + tick;
                long high = p - tick;
                long inside = reference <= 0 || reference <= low ? low : reference >= high ? high
                    : reference - (reference - low) % tick;
                if (reference > low && reference < high && inside + tick <= high
                    && reference - inside > inside + tick - reference) {
                    inside += tick;
                }
                consider(inside, buyAtP, asksBefore, reference);
            }
            consider(p, buyAtP, asksUpTo, reference);
            bidsBelow += bidsHere;
            previous = p;
            first = false;
        }
        return finish();
    }

    private void consider(long p, long buys, long sells, long reference) {
        long executed = Math.min(buys, sells);
        long left = Math.abs(buys - sells);
        long distance = reference > 0 ? Math.abs(p - reference) : 0;
        boolean better = executed > volume
            || (executed == volume && (left < imbalance
            || (left == imbalance && (distance < bestDistance || (distance == bestDistance && p < price)))));
        if (price == 0 || better) {
            price = p;
            volume = executed;
            imbalance = left;
            bestDistance = distance;
        }
    }

    private AuctionPrice finish() {
        if (volume == 0) {
            price = 0;
            imbalance = 0;
        }
        return this;
    }
}
