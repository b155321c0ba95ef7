package io.fixmatch.fix.gateway;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.loop.InboundCommandRing;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Cancel-on-disconnect with a full inbound ring: the command waits in the gateway and is offered again at every duty
 * cycle until the ring takes it; never dropped, never a wait, and commands keep their order.
 */
class PendingCommandsTest {
    @Test
    void aCommandTheFullRingRefusesIsRetriedEveryCycleUntilTaken() {
        InboundCommandRing ring = new InboundCommandRing(1024);
        Command filler = new Command().newOrder(9, "fill", 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 100, 1);
        int queued = 0;
        while (ring.offer(filler)) {
            queued++;
        }
        PendingCommands pending = new PendingCommands(ring);
        pending.submit(new Command().cancelAllForOwner(1));
        pending.submit(new Command().cancelAllForOwner(2));
        assertEquals(2, pending.size(), "the full ring took nothing: both wait");
        for (int cycle = 0; cycle < 5; cycle++) {
            assertEquals(0, pending.retry());
        }
        assertEquals(2, pending.size(), "still waiting, not dropped");

        List<String> read = new ArrayList<>();
        while (ring.read((type, buffer, index, length) -> read.add("order"), 100) > 0) {
            // drain
        }
        assertEquals(queued, read.size());
        assertEquals(2, pending.retry(), "room again: the next cycle offers both");
        assertEquals(0, pending.size());

        List<Integer> owners = new ArrayList<>();
        for (int attempt = 0; attempt < 3; attempt++) { // a read stops at the ring's end; the next goes on
            ring.read((type, buffer, index, length) -> {
                Command command = new Command();
                CommandCodec.decode(buffer, index, length, command);
                assertEquals(CommandType.CANCEL_ALL_FOR_OWNER, command.type());
                owners.add(command.owner());
            }, 100);
        }
        assertEquals(List.of(1, 2), owners, "in the order they were owed");
    }
}
