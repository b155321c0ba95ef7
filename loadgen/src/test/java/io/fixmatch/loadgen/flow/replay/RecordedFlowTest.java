package io.fixmatch.loadgen.flow.replay;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.loadgen.flow.RequestKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RecordedFlowTest {
    @TempDir
    Path dir;

    @Test
    void aFixLogReplaysWithEachSessionsClOrdIdsMappedAndItsPacing() throws Exception {
        Path log = dir.resolve("messages.log");
        Files.writeString(log, String.join("\n",
            "20261123-09:30:00.000: 8=FIX.4.4|9=1|35=A|49=C1|56=FIXMATCH|34=1|10=000|",
            "20261123-09:30:00.001: 8=FIX.4.4|9=1|35=D|49=C1|56=FIXMATCH|11=1|55=AAPL|54=1|38=10|40=2|44=1.50|59=0|10=000|",
            "20261123-09:30:00.002: 8=FIX.4.4|9=1|35=D|49=C2|56=FIXMATCH|11=1|55=AAPL|54=2|38=5|40=2|44=1.60|10=000|",
            "20261123-09:30:00.002: 8=FIX.4.4|9=1|35=8|49=FIXMATCH|56=C1|11=1|150=0|10=000|",
            "20261123-09:30:00.004: 8=FIX.4.4|9=1|35=G|49=C1|56=FIXMATCH|11=2|41=1|55=AAPL|54=1|38=20|40=2|44=1.55|10=000|",
            "20261123-09:30:00.005: 8=FIX.4.4|9=1|35=F|49=C2|56=FIXMATCH|11=2|41=1|55=AAPL|54=2|10=000|",
            "20261123-09:30:00.006: 8=FIX.4.4|9=1|35=F|49=C1|56=FIXMATCH|11=3|41=2|55=AAPL|54=1|10=000|",
            "20261123-09:30:00.007: 8=FIX.4.4|9=1|35=F|49=C1|56=FIXMATCH|11=4|41=99|55=AAPL|54=1|10=000|"));
        RecordedFlow flow = RecordedFlow.load(log);
        assertEquals(5, flow.size(), "the orders, the replace and the cancels; not the log's Logon, report, nor "
            + "the cancel of an order placed before the recording");
        ReplaySource source = new ReplaySource(flow, 0);
        List<String> sent = new ArrayList<>();
        List<Long> gaps = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            gaps.add(source.advance());
            sent.add(source.kind() + " " + field(source, FixTags.CL_ORD_ID) + " " + field(source, FixTags.ORIG_CL_ORD_ID));
        }
        assertEquals(List.of("NEW_ORDER L1 null", "NEW_ORDER L2 null", "REPLACE L3 L1", "CANCEL L4 L2",
            "CANCEL L5 L3", "NEW_ORDER L6 null", "NEW_ORDER L7 null", "REPLACE L8 L6"), sent,
            "the second pass maps to fresh ids, and its replace to its own order");
        assertEquals(List.of(1_250_000L, 1_000_000L, 2_000_000L, 1_000_000L, 1_000_000L, 1_250_000L, 1_000_000L,
            2_000_000L), gaps, "recorded gaps; the mean gap between passes");
        ReplaySource rescaled = new ReplaySource(flow, 2000);
        rescaled.advance();
        rescaled.advance();
        assertEquals(800_000, rescaled.advance(), "the 2 ms gap, scaled by 0.5 / 1.25 ms");
        assertEquals(2000, rescaled.meanRate(), 1);
        assertEquals(RequestKind.REPLACE, rescaled.kind());
    }

    @Test
    void aJournalDumpWithoutPacingNeedsARate() throws Exception {
        Path dump = dir.resolve("dump.jsonl");
        Files.writeString(dump, "{\"index\":1,\"time\":\"2026-11-23T09:30:00.000000000Z\",\"type\":\"NEW_ORDER\","
            + "\"session\":\"C1\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"ordType\":\"LIMIT\",\"tif\":\"DAY\","
            + "\"price\":\"1.50\",\"qty\":10,\"clOrdId\":\"a\"}\n");
        RecordedFlow flow = RecordedFlow.load(dump);
        assertThrows(IllegalArgumentException.class, () -> new ReplaySource(flow, 0));
        ReplaySource source = new ReplaySource(flow, 1000);
        assertEquals(1_000_000, source.advance());
        assertEquals("1.50", field(source, FixTags.PRICE));
    }

    private static String field(ReplaySource source, int tag) {
        FixWriter writer = new FixWriter(1024);
        writer.begin(source.msgType());
        source.body().writeBody(writer);
        writer.finish();
        FixMessage message = new FixMessage();
        assertEquals(FixParser.OK, FixParser.parse(writer.buffer(), writer.start(), writer.length(), message));
        return message.stringValue(tag);
    }
}
