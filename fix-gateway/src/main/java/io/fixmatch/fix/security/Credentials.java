package io.fixmatch.fix.security;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A session's Username(553) and Password(554), checked at Logon in constant time: both values are always compared
 * (no early return that would tell which one was wrong), as SHA-256 digests with {@link MessageDigest#isEqual}, so
 * the time taken depends neither on where the supplied bytes first differ nor on the configured value's length.
 * Runs once per Logon (allocates; not on the order path).
 */
public final class Credentials {
    private static final Credentials NONE = new Credentials(null, null);

    private final byte[] usernameDigest;
    private final byte[] passwordDigest;

    private Credentials(String username, String password) {
        this.usernameDigest = digestOf(username);
        this.passwordDigest = digestOf(password);
    }

    /** Required values (null: that field is not required). */
    public static Credentials of(String username, String password) {
        return username == null && password == null ? NONE : new Credentials(username, password);
    }

    /** Whether the Logon carries the configured values; both are always compared. */
    public boolean matches(FixMessage logon) {
        boolean username = matches(usernameDigest, logon, FixTags.USERNAME);
        boolean password = matches(passwordDigest, logon, FixTags.PASSWORD);
        return username & password;
    }

    private static boolean matches(byte[] expectedDigest, FixMessage logon, int tag) {
        if (expectedDigest == null) {
            return true;
        }
        int field = logon.indexOf(tag);
        byte[] supplied = field < 0 ? sha256(new byte[0], 0, 0)
            : sha256(logon.buffer(), logon.valueStartAt(field), logon.valueLengthAt(field));
        return MessageDigest.isEqual(supplied, expectedDigest) & field >= 0;
    }

    private static byte[] digestOf(String value) {
        if (value == null) {
            return null;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        return sha256(bytes, 0, bytes.length);
    }

    private static byte[] sha256(byte[] bytes, int offset, int length) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(bytes, offset, length);
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
