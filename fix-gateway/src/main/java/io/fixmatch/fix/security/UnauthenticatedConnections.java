package io.fixmatch.fix.security;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The open connections that have not sent their Logon yet, across every gateway thread, oldest first, and the caps on
 * them: across the server and per source address. A new connection is always let in; over a cap, the oldest such
 * connection (of the same address for the per-address cap) is closed to make room. So a flood of connections that
 * never log on cannot exhaust the server's descriptors and buffers, nor keep anyone out: a counterparty that sends
 * its Logon promptly gets in however many idle sockets are open, unless that many more connections arrive before its
 * Logon does. Touched when a connection opens, sends its Logon or closes (under this object's lock, held for a few
 * map operations); never on the order path.
 */
public final class UnauthenticatedConnections {
    /** A connection counted here. Told from any thread to close, as the oldest over a cap; closes on its own thread. */
    public interface Connection {
        void closeToMakeRoom();
    }

    /** One counted connection. */
    public static final class Entry {
        private final Connection connection;
        private final InetAddress address;
        private final long openedAtMs;
        /** Still counted (guarded by the lock of the {@link UnauthenticatedConnections} it belongs to). */
        private boolean counted = true;

        private Entry(Connection connection, InetAddress address, long openedAtMs) {
            this.connection = connection;
            this.address = address;
            this.openedAtMs = openedAtMs;
        }
    }

    /**
     * A connection closed to make room.
     *
     * @param address    its source address (null if not an IP connection)
     * @param openMs     how long it had been open without a Logon
     * @param perAddress closed for the per-address cap (else for the server's)
     */
    public record Closed(InetAddress address, long openMs, boolean perAddress) {
    }

    private final int max;
    private final int maxPerAddress;
    private final LinkedHashSet<Entry> all = new LinkedHashSet<>();
    private final Map<InetAddress, LinkedHashSet<Entry>> byAddress = new HashMap<>();
    private final AtomicLong closedForServerCap = new AtomicLong();
    private final AtomicLong closedForAddressCap = new AtomicLong();
    private volatile int count;

    public UnauthenticatedConnections(int max, int maxPerAddress) {
        if (max < 1 || maxPerAddress < 1) {
            throw new IllegalArgumentException("caps must be at least 1, were " + max + " and " + maxPerAddress);
        }
        this.max = max;
        this.maxPerAddress = maxPerAddress;
    }

    /**
     * Counts a new connection in; if that puts it over a cap, the oldest connection over it is taken out and told to
     * close (outside the lock). Returns the entry to {@link #release} and what was closed for it (usually nothing).
     */
    public Entry admit(Connection connection, InetAddress address, long nowMs, List<Closed> closed) {
        Entry entry = new Entry(connection, address, nowMs);
        Entry overAddressCap = null;
        Entry overServerCap = null;
        synchronized (this) {
            LinkedHashSet<Entry> sameAddress = address == null ? null : byAddress.get(address);
            if (sameAddress != null && sameAddress.size() >= maxPerAddress) {
                overAddressCap = remove(sameAddress.iterator().next());
            }
            if (all.size() >= max) {
                overServerCap = remove(all.iterator().next());
            }
            all.add(entry);
            if (address != null) {
                byAddress.computeIfAbsent(address, a -> new LinkedHashSet<>()).add(entry);
            }
            count = all.size();
        }
        if (overAddressCap != null) {
            closeToMakeRoom(overAddressCap, true, nowMs, closed);
        }
        if (overServerCap != null) {
            closeToMakeRoom(overServerCap, false, nowMs, closed);
        }
        return entry;
    }

    private void closeToMakeRoom(Entry victim, boolean perAddress, long nowMs, List<Closed> closed) {
        (perAddress ? closedForAddressCap : closedForServerCap).incrementAndGet();
        closed.add(new Closed(victim.address, nowMs - victim.openedAtMs, perAddress));
        victim.connection.closeToMakeRoom();
    }

    /**
     * The connection sent its Logon, or closed: it no longer counts. False if it had been closed to make room
     * already (then it must not log on: it is closing).
     */
    public synchronized boolean release(Entry entry) {
        if (!entry.counted) {
            return false;
        }
        remove(entry);
        count = all.size();
        return true;
    }

    private Entry remove(Entry entry) {
        entry.counted = false;
        all.remove(entry);
        if (entry.address != null) {
            LinkedHashSet<Entry> sameAddress = byAddress.get(entry.address);
            sameAddress.remove(entry);
            if (sameAddress.isEmpty()) {
                byAddress.remove(entry.address);
            }
        }
        return entry;
    }

    /** Any thread: how many there are now. */
    public int count() {
        return count;
    }

    /** Any thread: connections closed to make room under the server's cap, since start. */
    public long closedForServerCap() {
        return closedForServerCap.get();
    }

    /** Any thread: connections closed to make room under the per-address cap, since start. */
    public long closedForAddressCap() {
        return closedForAddressCap.get();
    }

    public int max() {
        return max;
    }

    public int maxPerAddress() {
        return maxPerAddress;
    }
}
