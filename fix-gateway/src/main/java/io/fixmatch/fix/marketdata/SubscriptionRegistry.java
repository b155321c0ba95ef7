package io.fixmatch.fix.marketdata;

import io.fixmatch.fix.session.FixSession;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The live subscriptions of one gateway's sessions: all of them (few: looked up by a scan), and per symbol the
 * subscriptions on it with the symbol's slot in each, in arrays walked on every update without allocating.
 */
final class SubscriptionRegistry {
    private final List<Subscription> all = new ArrayList<>();
    private final Subscription[][] bySymbol;
    private final int[][] slotBySymbol;
    private final int[] countBySymbol;
    private final MarketDataCounters counters;

    SubscriptionRegistry(int symbols, MarketDataCounters counters) {
        this.counters = counters;
        bySymbol = new Subscription[symbols][4];
        slotBySymbol = new int[symbols][4];
        countBySymbol = new int[symbols];
    }

    /** The session's live subscription with this MDReqID, or null. */
    Subscription find(FixSession session, byte[] buffer, int offset, int length) {
        for (int i = 0; i < all.size(); i++) {
            Subscription subscription = all.get(i);
            if (subscription.session == session && subscription.hasId(buffer, offset, length)) {
                return subscription;
            }
        }
        return null;
    }

    int countOf(FixSession session) {
        int count = 0;
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).session == session) {
                count++;
            }
        }
        return count;
    }

    void add(Subscription subscription) {
        if (countOf(subscription.session) == 0) {
            counters.add(MarketDataCounters.SUBSCRIBERS, 1);
        }
        all.add(subscription);
        counters.add(MarketDataCounters.SUBSCRIPTIONS, 1);
        for (int slot = 0; slot < subscription.symbols.length; slot++) {
            int symbolId = subscription.symbols[slot];
            int count = countBySymbol[symbolId];
            if (count == bySymbol[symbolId].length) {
                bySymbol[symbolId] = Arrays.copyOf(bySymbol[symbolId], count * 2);
                slotBySymbol[symbolId] = Arrays.copyOf(slotBySymbol[symbolId], count * 2);
            }
            bySymbol[symbolId][count] = subscription;
            slotBySymbol[symbolId][count] = slot;
            countBySymbol[symbolId] = count + 1;
        }
    }

    void remove(Subscription subscription) {
        if (!all.remove(subscription)) {
            return;
        }
        counters.add(MarketDataCounters.SUBSCRIPTIONS, -1);
        if (countOf(subscription.session) == 0) {
            counters.add(MarketDataCounters.SUBSCRIBERS, -1);
        }
        for (int symbolId : subscription.symbols) {
            Subscription[] subscriptions = bySymbol[symbolId];
            int count = countBySymbol[symbolId];
            for (int i = 0; i < count; i++) {
                if (subscriptions[i] == subscription) {
                    System.arraycopy(subscriptions, i + 1, subscriptions, i, count - i - 1);
                    System.arraycopy(slotBySymbol[symbolId], i + 1, slotBySymbol[symbolId], i, count - i - 1);
                    subscriptions[count - 1] = null;
                    countBySymbol[symbolId] = count - 1;
                    break;
                }
            }
        }
    }

    /** Every subscription of the session goes (its connection went). */
    void removeAll(FixSession session) {
        for (int i = all.size() - 1; i >= 0; i--) {
            if (i < all.size() && all.get(i).session == session) {
                remove(all.get(i));
            }
        }
    }

    int count(int symbolId) {
        return countBySymbol[symbolId];
    }

    Subscription subscription(int symbolId, int i) {
        return bySymbol[symbolId][i];
    }

    /** The symbol's slot in {@link #subscription}'s list of symbols. */
    int slot(int symbolId, int i) {
        return slotBySymbol[symbolId][i];
    }

    boolean isEmpty() {
        return all.isEmpty();
    }
}
