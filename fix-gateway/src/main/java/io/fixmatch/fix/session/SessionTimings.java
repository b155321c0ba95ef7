package io.fixmatch.fix.session;

/**
 * Session timers.
 *
 * @param logonTimeoutMs          how long a new connection may take to send its Logon
 * @param logoutTimeoutMs         how long we wait for the answer to our Logout before closing
 * @param sendingTimeToleranceMs  how far SendingTime(52) may be from our clock
 */
public record SessionTimings(long logonTimeoutMs, long logoutTimeoutMs, long sendingTimeToleranceMs) {
    public static SessionTimings defaults() {
        return new SessionTimings(10_000, 5_000, 120_000);
    }
}
