package io.fixmatch.server;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.loop.InboundCommandRing;

import java.util.List;

/** The server's own commands at start, in the inbound ring before the gateways take any client's. */
final class StartUpCommands {
    private StartUpCommands() {
    }

    static void queue(InboundCommandRing inbound, List<Command> commands) {
        for (Command command : commands) {
            if (!inbound.offer(command)) {
                throw new IllegalStateException("the inbound ring cannot hold the server's " + commands.size()
                    + " start-up commands; enlarge engine.inboundRingBytes");
            }
        }
    }
}
