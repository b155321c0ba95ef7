package io.fixmatch.fix.app;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.session.SeenClientOrderIds;

/**
 * Moves client order ids (ClOrdID, OrigClOrdID) between FIX fields and the engine's {@link ClientOrderId}: the
 * codec knows no engine types, so the bridge lives here. Allocation-free; one instance per writing thread.
 */
final class ClientOrderIdFields {
    private final byte[] scratch = new byte[ClientOrderId.MAX_LENGTH];

    /** Writes {@code id} as the value of {@code tag}. */
    void write(FixWriter writer, int tag, ClientOrderId id) {
        int length = id.copyTo(scratch, 0);
        writer.field(tag, scratch, 0, length);
    }

    /** The {@link SeenClientOrderIds#hash} of {@code id}'s bytes. */
    long hash(ClientOrderId id) {
        int length = id.copyTo(scratch, 0);
        return SeenClientOrderIds.hash(scratch, 0, length);
    }

    /** Copies the value of {@code tag} into {@code target}; false if the field is absent or too long. */
    static boolean read(FixMessage message, int tag, ClientOrderId target) {
        int field = message.indexOf(tag);
        return field >= 0 && target.copyFrom(message.buffer(), message.valueStartAt(field),
            message.valueLengthAt(field));
    }
}
