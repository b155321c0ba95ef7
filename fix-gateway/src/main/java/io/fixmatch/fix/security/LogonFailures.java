package io.fixmatch.fix.security;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Failed Logons by source address, and the lockout they lead to: after {@code maxFailures} failures in a row from
 * one address (unknown SenderCompID, wrong Username or Password, an address the session does not allow, a Logon
 * refused for the session's message rate), connections
 * from that address are refused for {@code lockoutMs}. A successful Logon from the address clears its count, and so
 * does a pause of {@code lockoutMs} since its last failure.
 *
 * <p>Shared by every gateway thread, touched only when a connection opens or a Logon fails or succeeds (never on the
 * order path), hence a concurrent map. Bounded: when it holds {@link #MAX_ADDRESSES} addresses, the stale ones are
 * dropped; if none is stale, new addresses are not tracked (and are not locked out) until some are.
 */
public final class LogonFailures {
    static final int MAX_ADDRESSES = 16_384;

    private record Entry(int failures, long lastFailureMs, long lockedUntilMs) {
    }

    private final int maxFailures;
    private final long lockoutMs;
    private final ConcurrentHashMap<InetAddress, Entry> entries = new ConcurrentHashMap<>();

    /** @param maxFailures failures in a row that lock an address out; 0 never locks out */
    public LogonFailures(int maxFailures, long lockoutMs) {
        this.maxFailures = maxFailures;
        this.lockoutMs = lockoutMs;
    }

    /** Until when (epoch ms) connections from {@code address} are refused, or 0 if they are not. */
    public long lockedUntil(InetAddress address, long nowMs) {
        Entry entry = address == null ? null : entries.get(address);
        return entry != null && entry.lockedUntilMs() > nowMs ? entry.lockedUntilMs() : 0;
    }

    /** Records a failed Logon; returns true when this failure locks the address out (log it). */
    public boolean failed(InetAddress address, long nowMs) {
        if (maxFailures == 0 || address == null) {
            return false;
        }
        if (entries.size() >= MAX_ADDRESSES && !entries.containsKey(address)) {
            entries.values().removeIf(entry -> entry.lockedUntilMs() <= nowMs
                && nowMs - entry.lastFailureMs() >= lockoutMs);
            if (entries.size() >= MAX_ADDRESSES) {
                return false;
            }
        }
        Entry updated = entries.compute(address, (key, entry) -> {
            int failures = entry == null || nowMs - entry.lastFailureMs() >= lockoutMs ? 1 : entry.failures() + 1;
            return failures >= maxFailures ? new Entry(0, nowMs, nowMs + lockoutMs) : new Entry(failures, nowMs,
                entry == null ? 0 : entry.lockedUntilMs());
        });
        return updated.lockedUntilMs() == nowMs + lockoutMs;
    }

    /** A Logon from {@code address} succeeded: its failures are forgotten. */
    public void succeeded(InetAddress address) {
        if (address != null) {
            entries.remove(address);
        }
    }

    public int maxFailures() {
        return maxFailures;
    }

    public long lockoutMs() {
        return lockoutMs;
    }
}
