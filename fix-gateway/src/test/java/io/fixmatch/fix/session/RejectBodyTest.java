package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.dictionary.SessionRejectReasons;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a session Reject says: the standard Text, the references, and the rejected message's routing reversed. */
class RejectBodyTest {
    private final FixWriter writer = new FixWriter(4096);

    private FixMessage received(String fields) {
        writer.begin(MsgTypes.NEW_ORDER_SINGLE).field(49, "TW").field(56, "ISLD").field(34, 7L)
            .field(52, "20261123-14:00:00.000");
        for (String field : fields.split("\\|")) {
            String[] tagValue = field.split("=", 2);
            writer.field(Integer.parseInt(tagValue[0]), tagValue[1]);
        }
        writer.finish();
        byte[] bytes = Arrays.copyOfRange(writer.buffer(), writer.start(), writer.start() + writer.length());
        FixMessage message = new FixMessage();
        assertEquals(FixParser.OK, FixParser.parse(bytes, 0, bytes.length, message));
        return message;
    }

    /** The Reject as written, SOH shown as '|'. */
    private String written(RejectBody body) {
        writer.begin(MsgTypes.REJECT);
        body.writeBody(writer);
        writer.finish();
        return new String(writer.buffer(), writer.start(), writer.length(), StandardCharsets.US_ASCII)
            .replace('\u0001', '|');
    }

    @Test
    void standardTextNamingTheTagAndTheReferences() {
        String reject = written(new RejectBody().of(received("11=ID|40=w"), 7, 40,
            SessionRejectReasons.VALUE_INCORRECT, null));
        assertTrue(reject.contains("|45=7|371=40|372=D|373=5|58=Value is incorrect (out of range) for this tag, "
            + "field=40|"), reject);
    }

    @Test
    void noTagMeansNoRefTagIdAndTheBareText() {
        String reject = written(new RejectBody().of(received("11=ID"), 7, RejectBody.NO_TAG,
            SessionRejectReasons.COMPID_PROBLEM, null));
        assertFalse(reject.contains("|371="), reject);
        assertTrue(reject.contains("|373=9|58=CompID problem|"), reject);
    }

    @Test
    void tagZeroAndNegativeTagsAreNamedToo() {
        assertTrue(written(new RejectBody().of(received("11=ID"), 7, 0, SessionRejectReasons.INVALID_TAG_NUMBER,
            null)).contains("|371=0|"));
        assertTrue(written(new RejectBody().of(received("11=ID"), 7, -1, SessionRejectReasons.INVALID_TAG_NUMBER,
            null)).contains("|371=-1|"));
    }

    @Test
    void aDetailFollowsTheStandardText() {
        String reject = written(new RejectBody().of(received("11=ID"), 7, 11, SessionRejectReasons.VALUE_INCORRECT,
            "tag 11 longer than 40 characters"));
        assertTrue(reject.contains("|58=Value is incorrect (out of range) for this tag, field=11: tag 11 longer than "
            + "40 characters|"), reject);
    }

    @Test
    void routingIsReversedBeforeTheBody() {
        String reject = written(new RejectBody().of(received("115=JCD|116=CS|144=CHI|11=ID"), 7, 40,
            SessionRejectReasons.VALUE_INCORRECT, null));
        assertTrue(reject.contains("|35=3|128=JCD|129=CS|145=CHI|45=7|"), reject);

        reject = written(new RejectBody().of(received("128=JCD|129=CS|145=CHI|11=ID"), 7, 40,
            SessionRejectReasons.VALUE_INCORRECT, null));
        assertTrue(reject.contains("|35=3|115=JCD|116=CS|144=CHI|45=7|"), reject);
    }
}
