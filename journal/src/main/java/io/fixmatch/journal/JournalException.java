package io.fixmatch.journal;

/** The journal cannot be used as it is: the server must not start on it. The message says why and where. */
public final class JournalException extends RuntimeException {
    public JournalException(String message) {
        super(message);
    }

    public JournalException(String message, Throwable cause) {
        super(message, cause);
    }
}
