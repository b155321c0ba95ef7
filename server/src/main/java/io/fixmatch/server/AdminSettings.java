package io.fixmatch.server;

/**
 * Where the admin HTTP endpoint listens ({@code admin.host}, {@code admin.port}): health, metrics and admin
 * commands, off the order path. Port 0 turns it off. With a {@code token} (not null), every path but
 * {@code /health} requires the header {@code Authorization: Bearer <token>}.
 */
public record AdminSettings(String host, int port, String token) {
    public static final int OFF = 0;
    /** Not a configurable value: tests ask for any free port this way (0 means off). */
    public static final int ANY_FREE_PORT = -1;

    /** No endpoint. */
    public static AdminSettings off() {
        return new AdminSettings("127.0.0.1", OFF, null);
    }

    public boolean enabled() {
        return port != OFF;
    }

    /** The port to bind: 0 (any free port) for {@link #ANY_FREE_PORT}. */
    public int bindPort() {
        return port == ANY_FREE_PORT ? 0 : port;
    }

    @Override
    public String toString() { // never the token
        return "AdminSettings[" + host + ":" + port + (token == null ? "" : ", token set") + "]";
    }
}
