package io.fixmatch.loadgen;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadgenOptionsTest {
    @Test
    void theFlagsThatExistedKeepTheirDefaultsAndMeaning() {
        LoadgenOptions defaults = LoadgenOptions.parse(new String[0]);
        assertEquals(45_000, defaults.rate());
        assertFalse(defaults.rateGiven());
        assertEquals(60, defaults.durationSeconds());
        assertEquals(60, defaults.floorDurationSeconds());
        assertEquals(Path.of("out", "loadgen"), defaults.out());
        LoadgenOptions given = LoadgenOptions.parse(new String[] {"--rate", "2000", "--duration", "4", "--warmup",
            "1", "--runs", "2", "--host", "h", "--port", "9", "--out", "o", "--symbols", "A,B", "--price-scale", "3",
            "--sender", "S", "--target", "T", "--cpu", "1", "--seed", "7", "--baseline", "b.json", "--max-ratio", "2",
            "--baseline-percentile", "p90", "--threshold", "new_ack.p99=10", "--threshold", "fill.worst=20",
            "--timeout", "3"});
        assertEquals(2000, given.rate());
        assertTrue(given.rateGiven());
        assertEquals(java.util.List.of("A", "B"), given.symbols());
        assertEquals(2, given.thresholds().size());
        assertEquals("p90", given.baselinePercentile());
        assertNull(LoadgenOptions.parse(new String[] {"--help"}));
    }

    @Test
    void aBadValueIsRefusedNamingTheFlagAndAMistypedFlagGetsASuggestion() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LoadgenOptions.parse(new String[] {"--rate",
            "abc"})).getMessage().contains("--rate"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LoadgenOptions.parse(new String[] {"--rate",
            "0"})).getMessage().contains("--rate"));
        String typo = assertThrows(IllegalArgumentException.class, () -> LoadgenOptions.parse(new String[] {
            "--durration", "5"})).getMessage();
        assertTrue(typo.contains("--durration") && typo.contains("--duration"), typo);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LoadgenOptions.parse(new String[] {
            "--threshold", "new_ack.p98=1"})).getMessage().contains("--threshold"));
        assertTrue(LoadgenOptions.usage().contains("4 INVALID"));
    }

    @Test
    void theFeedIsListenedToOnlyWhenAskedAtTheServersDefaultsOrTheAddressesGiven() {
        assertEquals(null, LoadgenOptions.parse(new String[0]).feed());
        assertEquals(new LoadgenOptions.FeedAddresses("127.0.0.1:40456", "127.0.0.1:40457", "127.0.0.1:40458"),
            LoadgenOptions.parse(new String[] {"--feed"}).feed());
        assertEquals(new LoadgenOptions.FeedAddresses("127.0.0.1:50000", "127.0.0.1:40457", "127.0.0.1:40458"),
            LoadgenOptions.parse(new String[] {"--feed-channel", "127.0.0.1:50000"}).feed());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LoadgenOptions.parse(new String[] {
            "--feed-retransmit", "nowhere"})).getMessage().startsWith("--feed-retransmit: not host:port"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LoadgenOptions.parse(new String[] {
            "--feed-channel", "127.0.0.1:1,127.0.0.1:2"})).getMessage().startsWith("--feed-channel wants one"));
    }
}
