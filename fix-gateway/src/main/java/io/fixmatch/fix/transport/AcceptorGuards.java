package io.fixmatch.fix.transport;

import io.fixmatch.fix.security.LogonFailures;
import io.fixmatch.fix.security.UnauthenticatedConnections;
import io.fixmatch.fix.session.SessionRegistry;
import org.slf4j.Logger;

import java.net.InetAddress;

/**
 * What every connection of one acceptor shares to protect the server: the cap on connections not logged on, the
 * failed-Logon lockout by address, throttled warnings for the connections they refuse (any gateway thread; only when
 * connections open, log on or close), and each session's message rate limit (its gateway thread only).
 */
final class AcceptorGuards {
    private final ConnectionLimits limits;
    private final UnauthenticatedConnections unauthenticated;
    private final LogonFailures logonFailures;
    private final WarningThrottle refusedWarnings = new WarningThrottle(1000);
    private final SessionRateLimits rateLimits;

    AcceptorGuards(ConnectionLimits limits, SessionRegistry registry) {
        this.limits = limits;
        this.rateLimits = new SessionRateLimits(registry);
        this.unauthenticated = new UnauthenticatedConnections(limits.maxUnauthenticated());
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
     * Whether a new connection from {@code address} may stay: not from a locked-out address, and within the cap
     * (then it is counted as unauthenticated until it logs on or closes). A refused one is logged, at most one line
     * a second.
     */
    boolean admit(InetAddress address, Object who, long nowMs, Logger log) {
        String refusal = lockout(address, nowMs);
        if (refusal == null && !unauthenticated.tryAdmit()) {
            refusal = capReached();
        }
        if (refusal == null) {
            return true;
        }
        warnRefused(who, refusal, nowMs, log);
        return false;
    }

    /**
     * The cheap check as the connection is accepted (see {@link EarlyRefusal}): whether it is from a locked-out
     * address or the cap is reached already (logged as {@link #admit} does). Counts nothing.
     */
    boolean refuseEarly(InetAddress address, Object who, long nowMs, Logger log) {
        String refusal = lockout(address, nowMs);
        if (refusal == null && unauthenticated.count() >= unauthenticated.max()) {
            refusal = capReached();
        }
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

    private String capReached() {
        return unauthenticated.max() + " connections are not logged on yet (fix.maxUnauthenticatedConnections)";
    }

    private void warnRefused(Object who, String refusal, long nowMs, Logger log) {
        if (refusedWarnings.allow(nowMs)) {
            long suppressed = refusedWarnings.takeSuppressed();
            log.warn("{}: connection refused: {}{}", who, refusal,
                suppressed > 0 ? " (" + suppressed + " more refused since the last such line)" : "");
        }
    }
}
