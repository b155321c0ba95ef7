package io.fixmatch.server;

/**
 * A configuration the server refuses: one line naming the key and where its value came from (the file, an
 * environment variable or a flag). {@code fixmatch-server} prints it and exits with status 2.
 */
public final class ConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
