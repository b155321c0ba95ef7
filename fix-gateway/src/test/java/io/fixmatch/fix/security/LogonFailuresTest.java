package io.fixmatch.fix.security;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.UnknownHostException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogonFailuresTest {
    private final InetAddress a = ip("10.0.0.1");
    private final InetAddress b = ip("10.0.0.2");

    @Test
    void theNthFailureInARowLocksTheAddressOutForTheLockout() {
        LogonFailures failures = new LogonFailures(3, 1000);
        assertFalse(failures.failed(a, 0));
        assertFalse(failures.failed(a, 10));
        assertEquals(0, failures.lockedUntil(a, 10));
        assertTrue(failures.failed(a, 20), "third in a row");
        assertEquals(1020, failures.lockedUntil(a, 20));
        assertEquals(1020, failures.lockedUntil(a, 1019));
        assertEquals(0, failures.lockedUntil(a, 1020), "over");
        assertEquals(0, failures.lockedUntil(b, 20), "other addresses are not affected");
    }

    @Test
    void aSuccessOrAPauseClearsTheCount() {
        LogonFailures failures = new LogonFailures(2, 1000);
        failures.failed(a, 0);
        failures.succeeded(a);
        assertFalse(failures.failed(a, 1), "counting starts again after a success");
        assertFalse(failures.failed(a, 2000), "a pause of the lockout time also starts again");
        assertTrue(failures.failed(a, 2001));
    }

    @Test
    void zeroNeverLocksOut() {
        LogonFailures failures = new LogonFailures(0, 1000);
        for (int i = 0; i < 100; i++) {
            assertFalse(failures.failed(a, i));
        }
        assertEquals(0, failures.lockedUntil(a, 100));
    }

    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
