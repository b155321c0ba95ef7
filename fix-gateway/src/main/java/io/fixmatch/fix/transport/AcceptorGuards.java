package io.fixmatch.fix.transport;

import io.fixmatch.fix.security.LogonFailures;
import io.fixmatch.fix.security.UnauthenticatedConnections;
import io.fixmatch.fix.session.SessionRegistry;
import org.slf4j.Logger;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What every connection of one acceptor shares to protect the server: the caps on connections not logged on (the
 * oldest over a cap is closed to let the new one in), the failed-Logon lockout by address, throttled warnings for the
 * connections they close or refuse (any gateway thread; only when connections open, log on or close), and each
 * session's message rate limit (its gateway thread only).
 */
final class AcceptorGuards {
    /** Addresses whose closed connections are counted apart for the warnings; beyond, the record starts over. */
    private static final int MAX_WARNED_ADDRESSES = 1024;

    private final ConnectionLimits limits;
    private final UnauthenticatedConnections unauthenticated;
    private final LogonFailures logonFailures;
    private final WarningThrottle refusedWarnings = new WarningThrottle(1000);
    /** Closed to make room: at most one line a second per address, and ten a second in all. */
    private final Map<InetAddress, WarningThrottle> closedWarnings = new ConcurrentHashMap<>();
    private final WarningThrottle allClosedWarnings = new WarningThrottle(100);
    private final SessionRateLimits rateLimits;

    AcceptorGuards(ConnectionLimits limits, SessionRegistry registry, UnauthenticatedConnections unauthenticated) {
        this.limits = limits;
        this.rateLimits = new SessionRateLimits(registry);
        this.unauthenticated = unauthenticated;
        this.logonFailures = new LogonFailures(limits.maxLogonFailures(), limits.logonLockoutMs());
    }

    ConnectionLimits limits() {
        return limits;
    }

    UnauthenticatedConnections unauthenticated() {
        return unauthenticated;
    }

    LogonFailures logonFailures() {
        return logonFailures;
    }

    SessionRateLimits rateLimits() {
        return rateLimits;
    }

    /**
     * Counts a new connection from {@code address} among those not logged on, closing the oldest over a cap (logged
     * per address, at most one line a second each); null if the address is locked out (then it must be closed; a
     * refusal is logged at most once a second).
     */
    UnauthenticatedConnections.Entry admit(UnauthenticatedConnections.Connection connection, InetAddress address,
                                           Object who, long nowMs, Logger log) {
        String refusal = lockout(address, nowMs);
        if (refusal != null) {
            warnRefused(who, refusal, nowMs, log);
            return null;
        }
        List<UnauthenticatedConnections.Closed> closed = new ArrayList<>(2);
        UnauthenticatedConnections.Entry entry = unauthenticated.admit(connection, address, nowMs, closed);
        for (UnauthenticatedConnections.Closed one : closed) {
            warnClosed(one, nowMs, log);
        }
        return entry;
    }

    /**
     * The cheap check as the connection is accepted (see {@link EarlyRefusal}): whether it is from a locked-out
     * address (logged as {@link #admit} does). Counts nothing.
     */
    boolean refuseEarly(InetAddress address, Object who, long nowMs, Logger log) {
        String refusal = lockout(address, nowMs);
        if (refusal == null) {
            return false;
        }
        warnRefused(who, refusal, nowMs, log);
        return true;
    }

    private String lockout(InetAddress address, long nowMs) {
        long lockedUntil = logonFailures.lockedUntil(address, nowMs);
        return lockedUntil == 0 ? null : "locked out after " + limits.maxLogonFailures() + " failed Logons, for "
            + (lockedUntil - nowMs) + " ms more";
    }

    private void warnRefused(Object who, String refusal, long nowMs, Logger log) {
        if (refusedWarnings.allow(nowMs)) {
            long suppressed = refusedWarnings.takeSuppressed();
            log.warn("{}: connection refused: {}{}", who, refusal,
                suppressed > 0 ? " (" + suppressed + " more refused since the last such line)" : "");
        }
    }

    private void warnClosed(UnauthenticatedConnections.Closed closed, long nowMs, Logger log) {
        WarningThrottle perAddress = allClosedWarnings;
        if (closed.address() != null) {
            if (closedWarnings.size() >= MAX_WARNED_ADDRESSES) {
                closedWarnings.clear();
            }
            perAddress = closedWarnings.computeIfAbsent(closed.address(), address -> new WarningThrottle(1000));
        }
        if (!perAddress.allow(nowMs) || (perAddress != allClosedWarnings && !allClosedWarnings.allow(nowMs))) {
            return;
        }
        long suppressed = perAddress.takeSuppressed();
        String address = closed.address() == null ? "(no address)" : closed.address().getHostAddress();
        String cap = closed.perAddress()
            ? unauthenticated.maxPerAddress() + " from this address are not logged on "
                + "(fix.maxUnauthenticatedConnectionsPerAddress)"
            : unauthenticated.max() + " connections are not logged on (fix.maxUnauthenticatedConnections); it was the "
                + "oldest on the server";
        log.warn("{}: closed its oldest connection not logged on (open {} ms) to let a new one in: {}{}", address,
            closed.openMs(), cap, suppressed > 0 ? " (" + suppressed + " more from this address since the last such "
                + "line)" : "");
    }
}
