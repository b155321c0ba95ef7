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
    /** Every configured session's client CompID by owner id (index i: owner i + 1), served here or not. */
    private final byte[][] clientCompIds;

    /** @param sessions in order of owner id: the session at index i has owner id i + 1; every one served here */
    public SessionRegistry(String serverCompId, List<FixSession> sessions) {
        this(serverCompId, sessions, sessions.stream().map(session -> new String(session.clientCompId(),
            StandardCharsets.US_ASCII)).toList());
    }

    /**
     * @param sessions      in order of owner id: the session at index i has owner id i + 1 (null: not served here)
     * @param clientCompIds every configured session's client CompID in order of owner id, served here or not
     */
    public SessionRegistry(String serverCompId, List<FixSession> sessions, List<String> clientCompIds) {
        this.serverCompId = serverCompId.getBytes(StandardCharsets.US_ASCII);
        this.sessions = sessions.toArray(new FixSession[0]);
        if (clientCompIds.size() != this.sessions.length) {
            throw new IllegalArgumentException(clientCompIds.size() + " CompIDs for " + this.sessions.length
                + " owner ids");
        }
        this.clientCompIds = clientCompIds.stream().map(id -> id.getBytes(StandardCharsets.US_ASCII))
            .toArray(byte[][]::new);
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

    /**
     * The client CompID of the session with this owner id, whether this process serves it or not (a drop copy of a
     * session another gateway of the cluster serves names it), or null if there is none.
     */
    public byte[] clientCompIdOf(int ownerId) {
        return ownerId >= 1 && ownerId <= clientCompIds.length ? clientCompIds[ownerId - 1] : null;
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
