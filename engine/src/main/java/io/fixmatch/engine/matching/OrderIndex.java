package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.ClientOrderId;

/** Live orders by (owner, client order id): how cancels, replaces and status requests find their order in O(1). */
final class OrderIndex {
    private final LinearProbingTable<Order> table;

    OrderIndex(int maxOrders) {
        table = new LinearProbingTable<>(maxOrders, order -> order.indexHash);
    }

    static int hash(int owner, ClientOrderId clientOrderId) {
        return clientOrderId.contentHash() * 31 + owner;
    }

    Order find(int owner, ClientOrderId clientOrderId) {
        return find(owner, clientOrderId, hash(owner, clientOrderId));
    }

    /** As {@link #find(int, ClientOrderId)}, the id's {@link #hash} already taken. */
    Order find(int owner, ClientOrderId clientOrderId, int hash) {
        for (int slot = table.home(hash); !table.isEmpty(slot); slot = table.next(slot)) {
            if (table.hashAt(slot) == hash) {
                Order order = table.at(slot);
                if (order.owner == owner && order.clientOrderId.contentEquals(clientOrderId)) {
                    return order;
                }
            }
        }
        return null;
    }

    void add(Order order) {
        order.indexHash = hash(order.owner, order.clientOrderId);
        table.insert(order);
    }

    /**
     * Adds an order whose {@code indexHash} is already {@link #hash} of its owner and id: a new order's, taken once for
     * its duplicate check and kept (hashing the id is a good part of a new order's cost in the index).
     */
    void addHashed(Order order) {
        table.insert(order);
    }

    void remove(Order order) {
        table.remove(order);
    }
}
