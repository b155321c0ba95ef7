package io.fixmatch.cluster.protocol;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * The cluster's gateways and which one holds each session, as the service knows them: sent to every connected
 * gateway after a change (a gateway's hello or loss, a session granted, released or taken over), so that any
 * gateway's admin endpoint can say where each session is. Little-endian:
 * <pre>
 *   i64 takeovers   i32 gateways, each: i32 slot, i32 gateway id, u8 connected, i64 pid, i32 FIX port, i32 admin port
 *   i32 owners, each: i32 the slot holding it (0: none)
 * </pre>
 *
 * @param holders {@code holders[owner]}: the slot holding the session (0: none); index 0 unused
 */
public record GatewayDirectory(long takeovers, List<Gateway> gateways, int[] holders) {
    public static final GatewayDirectory EMPTY = new GatewayDirectory(0, List.of(), new int[1]);

    /** One gateway the cluster knows (it said hello at least once). */
    public record Gateway(int slot, int id, boolean connected, long pid, int fixPort, int adminPort) {
    }

    /** The gateway holding {@code owner}'s session, or null. */
    public Gateway holderOf(int owner) {
        int slot = owner > 0 && owner < holders.length ? holders[owner] : 0;
        for (Gateway gateway : gateways) {
            if (gateway.slot() == slot) {
                return gateway;
            }
        }
        return null;
    }

    /** The owners {@code gateway} holds, in owner order. */
    public List<Integer> ownersHeldBy(Gateway gateway) {
        List<Integer> owners = new ArrayList<>();
        for (int owner = 1; owner < holders.length; owner++) {
            if (holders[owner] == gateway.slot()) {
                owners.add(owner);
            }
        }
        return owners;
    }

    /** Writes the directory at {@code offset}; returns its length. */
    public int encode(MutableDirectBuffer buffer, int offset) {
        int at = offset;
        buffer.putLong(at, takeovers, Egress.ORDER);
        buffer.putInt(at + Long.BYTES, gateways.size(), Egress.ORDER);
        at += Long.BYTES + Integer.BYTES;
        for (Gateway gateway : gateways) {
            buffer.putInt(at, gateway.slot(), Egress.ORDER);
            buffer.putInt(at + 4, gateway.id(), Egress.ORDER);
            buffer.putByte(at + 8, (byte) (gateway.connected() ? 1 : 0));
            buffer.putLong(at + 9, gateway.pid(), Egress.ORDER);
            buffer.putInt(at + 17, gateway.fixPort(), Egress.ORDER);
            buffer.putInt(at + 21, gateway.adminPort(), Egress.ORDER);
            at += 25;
        }
        buffer.putInt(at, holders.length - 1, Egress.ORDER);
        at += Integer.BYTES;
        for (int owner = 1; owner < holders.length; owner++) {
            buffer.putInt(at, holders[owner], Egress.ORDER);
            at += Integer.BYTES;
        }
        return at - offset;
    }

    public static GatewayDirectory decode(DirectBuffer buffer, int offset) {
        long takeovers = buffer.getLong(offset, Egress.ORDER);
        int count = buffer.getInt(offset + Long.BYTES, Egress.ORDER);
        int at = offset + Long.BYTES + Integer.BYTES;
        List<Gateway> gateways = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            gateways.add(new Gateway(buffer.getInt(at, Egress.ORDER), buffer.getInt(at + 4, Egress.ORDER),
                buffer.getByte(at + 8) != 0, buffer.getLong(at + 9, Egress.ORDER), buffer.getInt(at + 17, Egress.ORDER),
                buffer.getInt(at + 21, Egress.ORDER)));
            at += 25;
        }
        int owners = buffer.getInt(at, Egress.ORDER);
        at += Integer.BYTES;
        int[] holders = new int[owners + 1];
        for (int owner = 1; owner <= owners; owner++) {
            holders[owner] = buffer.getInt(at, Egress.ORDER);
            at += Integer.BYTES;
        }
        return new GatewayDirectory(takeovers, List.copyOf(gateways), holders);
    }
}
