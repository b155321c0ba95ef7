package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.TradingPhase;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node's view as its gateways' mirrors take it (a cluster's WELCOME and VIEW records): the halts, and in a welcome
 * each symbol's trading phase, so a gateway joining during a call publishes the call, not continuous trading.
 */
class EngineViewEncodingTest {
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocate(4096));

    private static EngineView nodeViewDuringACall() {
        EngineView node = new EngineView(3);
        node.phase(1, TradingPhase.VOLATILITY_CALL);
        node.phase(2, TradingPhase.CLOSED);
        node.halted(2, true);
        return node;
    }

    @Test
    void aWelcomesViewCarriesEachSymbolsPhase() {
        int length = nodeViewDuringACall().encode(buffer, 0, false, false, true);
        EngineView mirror = EngineView.mirror(3);
        mirror.apply(buffer, 0);
        assertEquals(TradingPhase.CONTINUOUS, mirror.phase(0));
        assertEquals(TradingPhase.VOLATILITY_CALL, mirror.phase(1));
        assertEquals(TradingPhase.CLOSED, mirror.phase(2));
        assertTrue(mirror.isHalted(2));
        assertTrue(length <= nodeViewDuringACall().maxEncodedLength(0), "within the bound buffers are sized by");
    }

    /** A VIEW record after an operator's command carries no phases: the mirror's stay as they were. */
    @Test
    void aViewWithoutPhasesLeavesTheMirrorsPhases() {
        EngineView mirror = EngineView.mirror(3);
        nodeViewDuringACall().encode(buffer, 0, false, false, true);
        mirror.apply(buffer, 0);
        EngineView continuous = new EngineView(3);
        continuous.encode(buffer, 0, false, false);
        mirror.apply(buffer, 0);
        assertEquals(TradingPhase.VOLATILITY_CALL, mirror.phase(1));
        assertEquals(false, mirror.isHalted(2), "the halts do come with every view");
    }
}
