package io.fixmatch.loadgen.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PercentilePageTest {
    @Test
    void wholeNinesReadAsPlainPercentiles() {
        assertEquals("0%", PercentileChart.label(0));
        assertEquals("90%", PercentileChart.label(1));
        assertEquals("99%", PercentileChart.label(2));
        assertEquals("99.9%", PercentileChart.label(3));
        assertEquals("99.999%", PercentileChart.label(5));
    }

    @Test
    void thePageShowsTheVerdictTheCommitTheChartAndEachDistribution() throws Exception {
        Histogram ack = new Histogram(3);
        for (int i = 1; i <= 1000; i++) {
            ack.recordValue(i * 1000L);
        }
        byte[] png = PercentileChart.png("t", Map.of("new_ack", ack));
        assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G');
        String page = PercentilePage.html("title", "INVALID", List.of("late <sender>"), "2026-11-23T14:00:00Z",
            "abc123", Map.of("cpu", "x"), Map.of("new_ack", ack), Map.of("new_ack", ProbeStats.of(ack)), Map.of(),
            ProbeStats.of(ack), ProbeStats.of(ack));
        assertTrue(page.contains("<h1 style='color:#ff7f0e'>INVALID</h1>"));
        assertTrue(page.contains("late &lt;sender&gt;") && page.contains("abc123") && page.contains("2026-11-23"));
        assertTrue(page.contains("data:image/png;base64,"), "the chart is embedded");
        assertTrue(page.contains("Value     Percentile TotalCount 1/(1-Percentile)"), "HdrHistogram's distribution");
        assertFalse(page.contains("99.900000000"));
    }
}
