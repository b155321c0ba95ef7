package io.fixmatch.loadgen.flow;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixWriter;

/** Our ClOrdIDs: "L" + a positive number, unique within a run; the number indexes the requests in flight. */
public final class ClOrdIds {
    private static final char PREFIX = 'L';

    private ClOrdIds() {
    }

    /** Writes ClOrdID(11) or OrigClOrdID(41) in our form. */
    public static void write(FixWriter w, int tag, long number) {
        w.field(tag, PREFIX, number);
    }

    /** The number in our ClOrdID "L123" in the field {@code tag}; 0 if absent or not one of ours. */
    public static long read(FixMessage message, int tag) {
        int field = message.indexOf(tag);
        if (field < 0 || message.valueLengthAt(field) < 2 || message.buffer()[message.valueStartAt(field)] != PREFIX) {
            return 0;
        }
        long number = FixMessage.parseLong(message.buffer(), message.valueStartAt(field) + 1,
            message.valueLengthAt(field) - 1);
        return number == FixMessage.NOT_A_NUMBER || number < 0 ? 0 : number;
    }
}
