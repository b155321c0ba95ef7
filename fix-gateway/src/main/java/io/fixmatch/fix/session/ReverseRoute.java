package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixWriter;

/**
 * The routing of a received message turned around for our answer to it, as FIX prescribes for a third party's
 * messages: OnBehalfOfCompID/SubID/LocationID (115/116/144) come back as DeliverToCompID/SubID/LocationID
 * (128/129/145) and the other way round. Empty values are not reflected; neither are values longer than a CompID
 * can sensibly be, so that an answer always fits in a message. Allocation-free.
 */
final class ReverseRoute {
    /** Pairs: the received tag, then the tag it is answered with. */
    private static final int[] PAIRS = {115, 128, 116, 129, 144, 145, 128, 115, 129, 116, 145, 144};
    private static final int MAX_VALUE_LENGTH = 64;

    private ReverseRoute() {
    }

    /** Writes the reversed routing fields of {@code received} (call right after the standard header). */
    static void write(FixMessage received, FixWriter writer) {
        for (int i = 0; i < PAIRS.length; i += 2) {
            int field = received.indexOf(PAIRS[i]);
            if (field >= 0) {
                int length = received.valueLengthAt(field);
                if (length > 0 && length <= MAX_VALUE_LENGTH) {
                    writer.field(PAIRS[i + 1], received.buffer(), received.valueStartAt(field), length);
                }
            }
        }
    }
}
