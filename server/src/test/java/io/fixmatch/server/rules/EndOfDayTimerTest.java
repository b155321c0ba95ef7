package io.fixmatch.server.rules;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.fix.gateway.PendingCommands;
import org.junit.jupiter.api.Test;

import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The end-of-day timer hands the engine one EXPIRE_DAY_ORDERS command, through the real inbound ring, when the
 * clock passes the configured time in its zone, then waits for the next day's.
 */
class EndOfDayTimerTest {
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    @Test
    void expiresOncePerDayAtTheConfiguredTimeInItsZone() {
        InboundCommandRing ring = new InboundCommandRing(1 << 16);
        long start = ZonedDateTime.of(2024, 3, 8, 12, 0, 0, 0, NEW_YORK).toInstant().toEpochMilli();
        EndOfDayTimer timer = new EndOfDayTimer(LocalTime.of(17, 30), NEW_YORK, new PendingCommands(ring), start);
        long due = ZonedDateTime.of(2024, 3, 8, 17, 30, 0, 0, NEW_YORK).toInstant().toEpochMilli();
        assertEquals(due, timer.nextMs());

        timer.accept(due - 1);
        assertEquals(List.of(), taken(ring));
        timer.accept(due);
        List<Command> taken = taken(ring);
        assertEquals(1, taken.size());
        assertEquals(CommandType.EXPIRE_DAY_ORDERS, taken.get(0).type());
        assertEquals(0, taken.get(0).owner());
        assertEquals(due * 1_000_000L, taken.get(0).timestampNanos());
        timer.accept(due + 60_000);
        assertEquals(List.of(), taken(ring), "once a day");
        // The next day is after the switch to daylight saving time (March 10th): still 17:30 in New York.
        assertEquals(ZonedDateTime.of(2024, 3, 9, 17, 30, 0, 0, NEW_YORK).toInstant().toEpochMilli(), timer.nextMs());
        long sunday = ZonedDateTime.of(2024, 3, 10, 17, 30, 0, 0, NEW_YORK).toInstant().toEpochMilli();
        assertEquals(sunday, timer.nextAfter(sunday - 1));
    }

    private static List<Command> taken(InboundCommandRing ring) {
        List<Command> commands = new ArrayList<>();
        ring.read((type, buffer, index, length) -> {
            Command command = new Command();
            io.fixmatch.engine.codec.CommandCodec.decode(buffer, index, length, command);
            commands.add(command);
        }, 100);
        return commands;
    }
}
