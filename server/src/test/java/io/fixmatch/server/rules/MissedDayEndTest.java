package io.fixmatch.server.rules;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.MatchingEngine;
import org.junit.jupiter.api.Test;

import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The decision at start, on an engine that processed commands with chosen journal stamps: the first end of day after
 * the last journaled command, if it is not after now and no EXPIRE_DAY_ORDERS is stamped at or after it.
 */
class MissedDayEndTest {
    private static final ZoneId LONDON = ZoneId.of("Europe/London");
    private static final LocalTime END = LocalTime.of(16, 30);
    private static final EngineConfig CONFIG = new EngineConfig(
        List.of(new SymbolSpec("ACME", 2, 1, 1, 1_000_000, 1_000_000)), 100, 100);

    private final MatchingEngine engine = new MatchingEngine(CONFIG, event -> { });

    @Test
    void theDayEndAfterTheLastCommandOnceItIsNotAfterNow() {
        assertEquals(Optional.empty(), missedAt(at(2, 17, 0)), "no command journaled: nothing to end");
        order("d1", at(2, 10, 0));
        long dayEnd = at(2, 16, 30);
        assertEquals(Optional.empty(), missedAt(dayEnd - 1));
        assertEquals(Optional.of(dayEnd), missedAt(dayEnd));
        assertEquals(Optional.of(dayEnd), missedAt(at(5, 9, 0)), "days later: that day's end (one expiry is enough)");

        engine.process(new Command().expireDayOrders().timestampNanos(at(3, 8, 0) * 1_000_000L));
        assertEquals(Optional.empty(), missedAt(at(3, 9, 0)), "ended at the last start");
        // A clock set back: a command stamped before the end of day that was already ended.
        order("d2", at(2, 12, 0));
        assertEquals(Optional.empty(), missedAt(at(3, 9, 0)), "an EXPIRE_DAY_ORDERS after that end of day: not twice");
        assertEquals(Optional.of(at(3, 16, 30)), missedAt(at(4, 9, 0)), "the next day's end is still due");
    }

    private Optional<Long> missedAt(long nowMs) {
        return MissedDayEnd.since(engine, END, LONDON, nowMs);
    }

    private void order(String clOrdId, long stampMs) {
        engine.process(new Command().newOrder(1, clOrdId, 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 100, 1)
            .timestampNanos(stampMs * 1_000_000L));
    }

    private static long at(int dayOfJune2031, int hour, int minute) {
        return ZonedDateTime.of(2031, 6, dayOfJune2031, hour, minute, 0, 0, LONDON).toInstant().toEpochMilli();
    }
}
