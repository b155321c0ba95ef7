package io.fixmatch.engine.matching;

/**
 * Each owner's live orders as an intrusive doubly linked list, so all of one owner's orders can be canceled
 * (cancel-on-disconnect) without scanning the books. Owners are small non-negative ints (session numbers): the
 * heads live in an array that grows, rarely, when a higher owner id first rests an order.
 */
final class OwnerOrders {
    private Order[] heads = new Order[16];

    void add(Order order) {
        int owner = order.owner;
        if (owner < 0) {
            return;
        }
        if (owner >= heads.length) {
            Order[] grown = new Order[Math.max(owner + 1, heads.length * 2)];
            System.arraycopy(heads, 0, grown, 0, heads.length);
            heads = grown;
        }
        Order head = heads[owner];
        order.ownerPrev = null;
        order.ownerNext = head;
        if (head != null) {
            head.ownerPrev = order;
        }
        heads[owner] = order;
    }

    void remove(Order order) {
        int owner = order.owner;
        if (owner < 0) {
            return;
        }
        if (order.ownerPrev == null) {
            heads[owner] = order.ownerNext;
        } else {
            order.ownerPrev.ownerNext = order.ownerNext;
        }
        if (order.ownerNext != null) {
            order.ownerNext.ownerPrev = order.ownerPrev;
        }
        order.ownerPrev = null;
        order.ownerNext = null;
    }

    /** One live order of the owner (the most recently rested), or null. */
    Order first(int owner) {
        return owner >= 0 && owner < heads.length ? heads[owner] : null;
    }
}
