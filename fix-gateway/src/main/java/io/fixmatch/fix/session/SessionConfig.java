package io.fixmatch.fix.session;

/**
 * One FIX session the server accepts.
 *
 * @param clientCompId       the client's CompID: SenderCompID on what it sends, TargetCompID on what we send
 * @param username           required Username (553) at Logon, or null for none
 * @param password           required Password (554) at Logon, or null for none
 * @param cancelOnDisconnect cancel all the session's live orders when it logs out or its connection drops
 * @param latencyTrace       stamp the server's stage times into this session's ExecutionReports (docs/FIX.md)
 */
public record SessionConfig(String clientCompId, String username, String password, boolean cancelOnDisconnect,
                            boolean latencyTrace) {
    public SessionConfig {
        if (clientCompId == null || clientCompId.isEmpty()) {
            throw new IllegalArgumentException("a session needs a client CompID");
        }
    }

    /** Not traced. */
    public SessionConfig(String clientCompId, String username, String password, boolean cancelOnDisconnect) {
        this(clientCompId, username, password, cancelOnDisconnect, false);
    }
}
