package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixWriter;

/** Writes the body fields of an outgoing message, after the session has written the standard header. */
@FunctionalInterface
public interface MessageBody {
    MessageBody EMPTY = writer -> { };

    void writeBody(FixWriter writer);
}
