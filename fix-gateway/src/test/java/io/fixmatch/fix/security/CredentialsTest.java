package io.fixmatch.fix.security;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Username and password both checked, exactly, whatever their lengths; a field not configured is not required. */
class CredentialsTest {
    @Test
    void bothFieldsMustMatchExactly() {
        Credentials credentials = Credentials.of("alice", "s3cret");
        assertTrue(credentials.matches(logon("553=alice\u0001554=s3cret\u0001")));
        assertFalse(credentials.matches(logon("553=alice\u0001554=s3creT\u0001")), "wrong password");
        assertFalse(credentials.matches(logon("553=bob\u0001554=s3cret\u0001")), "wrong username");
        assertFalse(credentials.matches(logon("553=alice\u0001554=s3cret2\u0001")), "longer password");
        assertFalse(credentials.matches(logon("553=alice\u0001554=s3cre\u0001")), "a prefix of the password");
        assertFalse(credentials.matches(logon("553=alice\u0001")), "password missing");
        assertFalse(credentials.matches(logon("554=s3cret\u0001")), "username missing");
    }

    @Test
    void aFieldThatIsNotConfiguredIsNotRequired() {
        assertTrue(Credentials.of(null, null).matches(logon("")));
        assertTrue(Credentials.of(null, "pw").matches(logon("553=anyone\u0001554=pw\u0001")));
        assertFalse(Credentials.of(null, "pw").matches(logon("553=anyone\u0001")));
        assertTrue(Credentials.of("u", null).matches(logon("553=u\u0001")));
    }

    private static FixMessage logon(String credentials) {
        byte[] bytes = ("8=FIX.4.4\u00019=5\u000135=A\u000149=C\u000156=S\u000134=1\u0001" + credentials + "10=000\u0001")
            .getBytes(StandardCharsets.US_ASCII);
        FixMessage message = new FixMessage();
        assertEquals(FixParser.OK, FixParser.parse(bytes, 0, bytes.length, message));
        return message;
    }
}
