package io.fixmatch.cluster.service;

/**
 * The gateways the service knows, in slots 1..max (slot 0 collects the events of owners no gateway serves, which
 * are dropped), and which slot serves each owner. Lookups scan the few slots in order: deterministic, no hashing.
 */
final class GatewaySlots {
    private final GatewaySlot[] slots;
    /** Owner id -> slot index (0: no gateway serves it). */
    private final int[] slotOfOwner;

    GatewaySlots(int maxGateways, int ownerCount, int windowBytes) {
        slots = new GatewaySlot[maxGateways + 1];
        for (int i = 1; i <= maxGateways; i++) {
            slots[i] = new GatewaySlot(i, windowBytes);
        }
        slotOfOwner = new int[ownerCount + 1];
    }

    int maxGateways() {
        return slots.length - 1;
    }

    /** Slot 1..max. */
    GatewaySlot slot(int index) {
        return slots[index];
    }

    /** The outbound ring (slot) of an owner's events: 0 when no gateway serves it. */
    int slotOfOwner(int owner) {
        return owner > 0 && owner < slotOfOwner.length ? slotOfOwner[owner] : 0;
    }

    int ownerCount() {
        return slotOfOwner.length - 1;
    }

    GatewaySlot bySession(long sessionId) {
        for (int i = 1; i < slots.length; i++) {
            if (slots[i].sessionId == sessionId && slots[i].gatewayId != 0) {
                return slots[i];
            }
        }
        return null;
    }

    GatewaySlot byGatewayId(int gatewayId) {
        for (int i = 1; i < slots.length; i++) {
            if (slots[i].gatewayId == gatewayId) {
                return slots[i];
            }
        }
        return null;
    }

    GatewaySlot firstFree() {
        for (int i = 1; i < slots.length; i++) {
            if (slots[i].isFree()) {
                return slots[i];
            }
        }
        return null;
    }

    /** Why {@code slot} may not serve {@code owners}, or null: ids in range, none served by another open gateway. */
    String refusalOf(GatewaySlot slot, int[] owners) {
        for (int owner : owners) {
            if (owner < 1 || owner >= slotOfOwner.length) {
                return "owner id " + owner + " is not one of the cluster's " + ownerCount() + " sessions (are the"
                    + " gateway's and the nodes' sessions lists the same?)";
            }
            int current = slotOfOwner[owner];
            if (current != 0 && current != slot.index && slots[current].open) {
                return "owner id " + owner + " is served by gateway " + slots[current].gatewayId
                    + ", which is connected";
            }
        }
        return null;
    }

    /** The gateway in {@code slot} serves these owners from now on (taken from any other, disconnected, gateway). */
    void assign(GatewaySlot slot, int[] owners) {
        for (int owner = 1; owner < slotOfOwner.length; owner++) {
            if (slotOfOwner[owner] == slot.index) {
                slotOfOwner[owner] = 0;
            }
        }
        for (int owner : owners) {
            int previous = slotOfOwner[owner];
            if (previous != 0 && previous != slot.index) {
                slots[previous].owners = without(slots[previous].owners, owner);
            }
            slotOfOwner[owner] = slot.index;
        }
        slot.owners = owners.clone();
    }

    private static int[] without(int[] owners, int owner) {
        int[] rest = new int[owners.length - 1];
        int at = 0;
        for (int o : owners) {
            if (o != owner) {
                rest[at++] = o;
            }
        }
        return rest;
    }
}
