package io.fixmatch.server;

/**
 * Where the admin HTTP endpoint listens ({@code admin.host}, {@code admin.port}): health, metrics and admin
 * commands, off the order path. Port 0 turns it off.
 */
public record AdminSettings(String host, int port) {
    public static final int OFF = 0;

    public boolean enabled() {
        return port != OFF;
    }
}
