package io.fixmatch.cluster.protocol;

import io.fixmatch.engine.config.SymbolSpec;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;

/**
 * A checksum of what gives the journal's ids their meaning, the symbols (with their ticks, lots and limits) and the
 * sessions in order: gateways and nodes of one venue must agree on them. A gateway's HELLO carries its own; the first
 * one the log holds becomes the venue's (replicated state): a later HELLO with another is refused, and a node whose
 * configuration gives another stops rather than apply the log under other ids (a node on an empty disk replaying the
 * log from its start included).
 */
public final class VenueFingerprint {
    private VenueFingerprint() {
    }

    public static long of(List<SymbolSpec> symbols, List<String> owners) {
        CRC32 crc = new CRC32();
        for (SymbolSpec symbol : symbols) {
            crc.update((symbol.name() + "|" + symbol.priceScale() + "|" + symbol.tickSize() + "|" + symbol.lotSize()
                + "|" + symbol.maxPrice() + "|" + symbol.maxQuantity() + ";").getBytes(StandardCharsets.US_ASCII));
        }
        crc.update('#');
        for (String owner : owners) {
            crc.update((owner + ";").getBytes(StandardCharsets.US_ASCII));
        }
        return crc.getValue() + 1; // never 0: 0 means none yet
    }
}
