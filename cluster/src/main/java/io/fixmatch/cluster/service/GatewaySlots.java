package io.fixmatch.cluster.service;

/**
 * The gateways the service knows, in slots 1..max (slot 0 collects the events of sessions no gateway holds: they are
 * numbered and kept, not sent). Lookups scan the few slots in order: deterministic, no hashing.
 */
final class GatewaySlots {
    private final GatewaySlot[] slots;
    private final int ownerCount;

    GatewaySlots(int maxGateways, int ownerCount, int windowBytes) {
        slots = new GatewaySlot[maxGateways + 1];
        for (int i = 1; i <= maxGateways; i++) {
            slots[i] = new GatewaySlot(i, windowBytes);
        }
        this.ownerCount = ownerCount;
    }

    int maxGateways() {
        return slots.length - 1;
    }

    /** Slot 1..max. */
    GatewaySlot slot(int index) {
        return slots[index];
    }

    int ownerCount() {
        return ownerCount;
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

    /** Why a gateway may not serve {@code owners}, or null: every id must be one of the venue's sessions. */
    String refusalOf(int[] owners) {
        for (int owner : owners) {
            if (owner < 1 || owner > ownerCount) {
                return "owner id " + owner + " is not one of the cluster's " + ownerCount + " sessions (are the"
                    + " gateway's and the nodes' sessions lists the same?)";
            }
        }
        return null;
    }
}
