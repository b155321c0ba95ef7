package io.fixmatch.engine.matching;

/**
 * Each owner's live orders as an intrusive doubly linked list, so all of one owner's orders can be canceled
 * (cancel-on-disconnect) without scanning the books. Owners are small non-negative ints (session numbers) below
 * {@link #MAX_OWNERS}; the engine refuses orders of any other owner, so the heads array is allocated once.
 */
final class OwnerOrders {
    static final int MAX_OWNERS = 1 << 16;

    private final Order[] heads = new Order[MAX_OWNERS];

    static boolean isValidOwner(int owner) {
        return owner >= 0 && owner < MAX_OWNERS;
    }

    void add(Order order) {
        int owner = order.owner;
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
        return isValidOwner(owner) ? heads[owner] : null;
    }
}
