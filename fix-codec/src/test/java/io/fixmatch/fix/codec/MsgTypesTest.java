package io.fixmatch.fix.codec;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MsgTypesTest {
    @Test
    void ofWriteAndToStringAgree() {
        for (String type : new String[] {"0", "1", "2", "3", "4", "5", "8", "9", "A", "D", "F", "G", "H", "j",
            "AE", "BE", "AN", "zz"}) {
            byte[] b = type.getBytes(StandardCharsets.US_ASCII);
            int msgType = MsgTypes.of(b, 0, b.length);
            assertEquals(type, MsgTypes.toString(msgType));
            byte[] out = new byte[4];
            assertEquals(b.length, MsgTypes.write(msgType, out, 1));
            assertEquals(type, new String(out, 1, b.length, StandardCharsets.US_ASCII));
        }
        assertEquals('D', MsgTypes.NEW_ORDER_SINGLE);
        assertEquals(-1, MsgTypes.of("ABC".getBytes(StandardCharsets.US_ASCII), 0, 3));
        assertEquals(-1, MsgTypes.of(new byte[0], 0, 0));
    }

    @Test
    void adminTypes() {
        for (int t : new int[] {MsgTypes.HEARTBEAT, MsgTypes.TEST_REQUEST, MsgTypes.RESEND_REQUEST, MsgTypes.REJECT,
            MsgTypes.SEQUENCE_RESET, MsgTypes.LOGOUT, MsgTypes.LOGON}) {
            assertTrue(MsgTypes.isAdmin(t));
        }
        for (int t : new int[] {MsgTypes.EXECUTION_REPORT, MsgTypes.NEW_ORDER_SINGLE, MsgTypes.ORDER_CANCEL_REQUEST,
            MsgTypes.ORDER_CANCEL_REPLACE_REQUEST, MsgTypes.ORDER_STATUS_REQUEST, MsgTypes.BUSINESS_MESSAGE_REJECT,
            MsgTypes.ORDER_CANCEL_REJECT, ('A' << 8) | 'E'}) {
            assertFalse(MsgTypes.isAdmin(t));
        }
    }
}
