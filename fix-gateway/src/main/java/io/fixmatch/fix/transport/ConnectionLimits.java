package io.fixmatch.fix.transport;

/**
 * What one connection may do before it is closed.
 *
 * @param maxUnauthenticated connections not (yet) logged on, across the server; over it, the oldest is closed
 * @param maxUnauthenticatedPerAddress the same, per source address
 * @param maxGarbledBytes    bytes that are no FIX message (garbage, wrong CheckSum) a connection may send in a row,
 *                           without a valid message in between, before it is logged out and closed
 * @param maxLogonFailures   failed Logons in a row from one address that lock it out (0: never)
 * @param logonLockoutMs     how long an address stays locked out
 */
public record ConnectionLimits(int maxUnauthenticated, int maxUnauthenticatedPerAddress, int maxGarbledBytes,
                               int maxLogonFailures, long logonLockoutMs) {
    public static ConnectionLimits defaults() {
        return new ConnectionLimits(100, 20, 65_536, 5, 60_000);
    }
}
