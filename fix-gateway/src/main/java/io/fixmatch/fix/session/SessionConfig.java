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
 * @param dropCopyFor        the client CompIDs whose reports this session receives copies of (empty: it is a
 *                           trading session, not a drop-copy session; a drop-copy session enters no orders)
 * @param schedule           when the session may be logged on, and whether its sequence numbers reset at each start
 * @param clOrdIdMemory      how many of its latest reports' ClOrdIDs the session remembers, to ignore a
 *                           NewOrderSingle resent with PossResend=Y (see {@link SeenClientOrderIds})
 */
public record SessionConfig(String clientCompId, String username, String password, boolean cancelOnDisconnect,
                            boolean latencyTrace, long maxMessagesPerSecond, AllowedAddresses allowedAddresses,
                            java.util.List<String> dropCopyFor, SessionSchedule schedule, int clOrdIdMemory) {
    /** The default of {@link #maxMessagesPerSecond}. */
    public static final long DEFAULT_MAX_MESSAGES_PER_SECOND = 200_000;
    /** The default of {@link #clOrdIdMemory}. */
    public static final int DEFAULT_CL_ORD_ID_MEMORY = 100_000;

    public SessionConfig {
        if (clientCompId == null || clientCompId.isEmpty()) {
            throw new IllegalArgumentException("a session needs a client CompID");
        }
        if (maxMessagesPerSecond < 0) {
            throw new IllegalArgumentException("maxMessagesPerSecond must not be negative");
        }
        allowedAddresses = allowedAddresses == null ? AllowedAddresses.any() : allowedAddresses;
        dropCopyFor = dropCopyFor == null ? java.util.List.of() : java.util.List.copyOf(dropCopyFor);
        if (dropCopyFor.contains(clientCompId)) {
            throw new IllegalArgumentException(clientCompId + " cannot be a drop copy of itself");
        }
        schedule = schedule == null ? SessionSchedule.ALWAYS : schedule;
        if (clOrdIdMemory < 0) {
            throw new IllegalArgumentException("clOrdIdMemory must not be negative");
        }
    }

    /** A trading session without a schedule. */
    public SessionConfig(String clientCompId, String username, String password, boolean cancelOnDisconnect,
                         boolean latencyTrace, long maxMessagesPerSecond, AllowedAddresses allowedAddresses) {
        this(clientCompId, username, password, cancelOnDisconnect, latencyTrace, maxMessagesPerSecond,
            allowedAddresses, java.util.List.of(), SessionSchedule.ALWAYS, DEFAULT_CL_ORD_ID_MEMORY);
    }

    /** Whether this is a drop-copy session (it receives copies of other sessions' reports and enters no orders). */
    public boolean isDropCopy() {
        return !dropCopyFor.isEmpty();
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
            + ", maxMessagesPerSecond=" + maxMessagesPerSecond + ", allowedAddresses=" + allowedAddresses
            + (dropCopyFor.isEmpty() ? "" : ", dropCopyFor=" + dropCopyFor) + ", schedule=" + schedule
            + ", clOrdIdMemory=" + clOrdIdMemory + "]";
    }
}
