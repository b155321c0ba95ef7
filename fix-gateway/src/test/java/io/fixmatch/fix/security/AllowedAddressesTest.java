package io.fixmatch.fix.security;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.UnknownHostException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AllowedAddressesTest {
    @Test
    void addressesAndBlocks() throws UnknownHostException {
        AllowedAddresses allowed = AllowedAddresses.parse("10.1.2.3, 192.168.0.0/16,172.16.0.0/12, ::1");
        assertTrue(allowed.allows(ip("10.1.2.3")));
        assertFalse(allowed.allows(ip("10.1.2.4")));
        assertTrue(allowed.allows(ip("192.168.255.7")));
        assertFalse(allowed.allows(ip("192.169.0.1")));
        assertTrue(allowed.allows(ip("172.31.255.255")), "last address of a /12");
        assertFalse(allowed.allows(ip("172.32.0.0")), "first address after the /12");
        assertTrue(allowed.allows(ip("::1")));
        assertFalse(allowed.allows(null));
    }

    @Test
    void blankAllowsAnything() throws UnknownHostException {
        assertTrue(AllowedAddresses.parse(" ").allows(ip("8.8.8.8")));
        assertTrue(AllowedAddresses.any().allows(null));
        assertTrue(AllowedAddresses.parse("0.0.0.0/0").allows(ip("8.8.8.8")));
    }

    @Test
    void hostNamesAndBadPrefixesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> AllowedAddresses.parse("localhost"));
        assertThrows(IllegalArgumentException.class, () -> AllowedAddresses.parse("10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class, () -> AllowedAddresses.parse("10.0.0.0/x"));
        assertThrows(IllegalArgumentException.class, () -> AllowedAddresses.parse("10.0.0.300"));
    }

    private static InetAddress ip(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal);
    }
}
