package io.fixmatch.fix.codec;


/** Writes the body fields of an outgoing message, after the session has written the standard header. */
@FunctionalInterface
public interface MessageBody {
    MessageBody EMPTY = writer -> { };

    void writeBody(FixWriter writer);
}
