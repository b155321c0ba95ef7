package io.fixmatch.journal;

import net.openhft.chronicle.core.time.TimeProvider;

import java.nio.file.Path;
import java.util.List;

/**
 * A cluster node's {@link SessionMessageLog}s, one per configured session, in {@code <directory>/<CompID>/}: where
 * any node finds every message the cluster numbered for a session, to answer its resends whichever gateway sent them.
 * Owner id k is the k-th CompID of the session table.
 */
public final class SessionMessageLogs implements AutoCloseable {
    private final SessionMessageLog[] logs;

    private SessionMessageLogs(SessionMessageLog[] logs) {
        this.logs = logs;
    }

    /** Opens (or creates) every session's log; {@code logClockMs} decides which file an append goes to. */
    public static SessionMessageLogs open(Path directory, List<String> owners, TimeProvider logClockMs) {
        SessionMessageLog[] logs = new SessionMessageLog[owners.size() + 1];
        try {
            for (int owner = 1; owner <= owners.size(); owner++) {
                logs[owner] = SessionMessageLog.open(directory.resolve(owners.get(owner - 1)), logClockMs);
            }
        } catch (RuntimeException e) {
            for (SessionMessageLog log : logs) {
                if (log != null) {
                    log.close();
                }
            }
            throw e;
        }
        return new SessionMessageLogs(logs);
    }

    /** The log of owner {@code owner} (1..sessions). */
    public SessionMessageLog of(int owner) {
        return logs[owner];
    }

    /** The thread that calls from now on becomes the one Chronicle allows. */
    public void claimOwnership() {
        for (int owner = 1; owner < logs.length; owner++) {
            logs[owner].claimOwnership();
        }
    }

    @Override
    public void close() {
        for (int owner = 1; owner < logs.length; owner++) {
            logs[owner].close();
        }
    }
}
