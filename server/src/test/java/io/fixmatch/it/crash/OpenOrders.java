package io.fixmatch.it.crash;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The orders a trader believes live (acknowledged, not yet filled, canceled or replaced), for the load driver to
 * pick cancel and replace targets from. Updated from the reports the client accepts; thread-safe.
 */
final class OpenOrders {
    /** A live order as the client knows it. */
    record Open(String clOrdId, String symbol, char side, long cumQty) {
    }

    private final List<Open> orders = new ArrayList<>();
    private final Map<String, Integer> positions = new HashMap<>();

    synchronized void onReport(Report report) {
        switch (report.execType()) {
            case '0' -> add(new Open(report.clOrdId(), report.symbol(), report.side(), report.cumQty()));
            case 'F' -> {
                if (report.ordStatus() == '2') {
                    remove(report.clOrdId());
                } else if (positions.containsKey(report.clOrdId())) {
                    add(new Open(report.clOrdId(), report.symbol(), report.side(), report.cumQty()));
                }
            }
            case 'C' -> remove(report.clOrdId()); // expired: its time (GTD) or the day's end came
            case '4' -> {
                remove(report.clOrdId());
                if (report.origClOrdId() != null) {
                    remove(report.origClOrdId());
                }
            }
            case '5' -> {
                remove(report.origClOrdId());
                add(new Open(report.clOrdId(), report.symbol(), report.side(), report.cumQty()));
            }
            default -> {
            }
        }
    }

    /** Takes a random live order out of the set (a cancel or replace is about to name it), or null. */
    synchronized Open take(SplittableRandom random) {
        if (orders.isEmpty()) {
            return null;
        }
        Open open = orders.get(random.nextInt(orders.size()));
        remove(open.clOrdId());
        return open;
    }

    synchronized int size() {
        return orders.size();
    }

    private void add(Open open) {
        Integer position = positions.get(open.clOrdId());
        if (position != null) {
            orders.set(position, open);
        } else {
            positions.put(open.clOrdId(), orders.size());
            orders.add(open);
        }
    }

    private void remove(String clOrdId) {
        Integer position = positions.remove(clOrdId);
        if (position == null) {
            return;
        }
        Open last = orders.remove(orders.size() - 1);
        if (position < orders.size()) {
            orders.set(position, last);
            positions.put(last.clOrdId(), position);
        }
    }
}
