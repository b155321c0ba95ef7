package io.fixmatch.fix.session;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The configured sessions this process serves, found by the client's CompID bytes or by engine owner id (a cluster
 * gateway serving some sessions holds nulls for the others, which another gateway serves).
 */
public final class SessionRegistry {
    private final byte[] serverCompId;
    private final FixSession[] sessions;

    /** @param sessions in order of owner id: the session at index i has owner id i + 1 (null: not served here) */
    public SessionRegistry(String serverCompId, List<FixSession> sessions) {
        this.serverCompId = serverCompId.getBytes(StandardCharsets.US_ASCII);
        this.sessions = sessions.toArray(new FixSession[0]);
        for (int i = 0; i < this.sessions.length; i++) {
            if (this.sessions[i] != null && this.sessions[i].ownerId() != i + 1) {
                throw new IllegalArgumentException("session " + i + " must have owner id " + (i + 1));
            }
        }
    }

    public byte[] serverCompId() {
        return serverCompId;
    }

    /** The session of this client CompID, or null. */
    public FixSession byClientCompId(byte[] buffer, int offset, int length) {
        for (FixSession session : sessions) {
            if (session == null) {
                continue;
            }
            byte[] id = session.clientCompId();
            if (id.length == length && java.util.Arrays.equals(id, 0, length, buffer, offset, offset + length)) {
                return session;
            }
        }
        return null;
    }

    /** The session whose orders carry this owner id, or null. */
    public FixSession byOwner(int ownerId) {
        return ownerId >= 1 && ownerId <= sessions.length ? sessions[ownerId - 1] : null;
    }

    /** The highest owner id of the configured sessions, served here or not (owner ids run 1..this). */
    public int maxOwnerId() {
        return sessions.length;
    }

    /** The sessions served here. */
    public List<FixSession> all() {
        return java.util.Arrays.stream(sessions).filter(java.util.Objects::nonNull).toList();
    }
}
