package io.fixmatch.fix.session;

import io.fixmatch.fix.security.AllowedAddresses;

/**
 * One FIX session the server accepts.
 *
 * @param clientCompId       the client's CompID: SenderCompID on what it sends, TargetCompID on what we send
 * @param username           required Username (553) at Logon, or null for none
 * @param password           required Password (554) at Logon, or null for none
 * @param cancelOnDisconnect cancel all the session's live orders when it logs out or its connection drops
 * @param latencyTrace       stamp the server's stage times into this session's ExecutionReports (docs/FIX.md)
 * @param maxMessagesPerSecond inbound messages per second the session may send (0: no limit); see the transport's
 *                           rate limit for what happens beyond
 * @param allowedAddresses   the source addresses the session may log on from
 */
public record SessionConfig(String clientCompId, String username, String password, boolean cancelOnDisconnect,
                            boolean latencyTrace, long maxMessagesPerSecond, AllowedAddresses allowedAddresses) {
    /** The default of {@link #maxMessagesPerSecond}. */
    public static final long DEFAULT_MAX_MESSAGES_PER_SECOND = 200_000;

    public SessionConfig {
        if (clientCompId == null || clientCompId.isEmpty()) {
            throw new IllegalArgumentException("a session needs a client CompID");
        }
        if (maxMessagesPerSecond < 0) {
            throw new IllegalArgumentException("maxMessagesPerSecond must not be negative");
        }
        allowedAddresses = allowedAddresses == null ? AllowedAddresses.any() : allowedAddresses;
    }

    /** The default rate limit, from any address. */
    public SessionConfig(String clientCompId, String username, String password, boolean cancelOnDisconnect,
                         boolean latencyTrace) {
        this(clientCompId, username, password, cancelOnDisconnect, latencyTrace, DEFAULT_MAX_MESSAGES_PER_SECOND,
            AllowedAddresses.any());
    }

    /** Not traced. */
    public SessionConfig(String clientCompId, String username, String password, boolean cancelOnDisconnect) {
        this(clientCompId, username, password, cancelOnDisconnect, false);
    }

    /** Never shows the password. */
    @Override
    public String toString() {
        return "SessionConfig[" + clientCompId + ", username=" + username + ", password=" + (password == null ? "none"
            : "***") + ", cancelOnDisconnect=" + cancelOnDisconnect + ", latencyTrace=" + latencyTrace
            + ", maxMessagesPerSecond=" + maxMessagesPerSecond + ", allowedAddresses=" + allowedAddresses + "]";
    }
}
