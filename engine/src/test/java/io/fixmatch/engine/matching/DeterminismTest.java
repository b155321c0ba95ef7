package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.testing.RecordingSink;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** MATCHING.md: "a deterministic state machine" — the same commands always give the same events. */
class DeterminismTest {
    static final int COMMANDS = 20_000;

    @Test
    void theSameLongCommandSequenceGivesIdenticalEventsInTwoFreshEngines() {
        List<Command> commands = commands(42, COMMANDS);
        Run first = run(commands, 1_000, 1_000);
        Run second = run(commands, 1_000, 1_000);

        assertEquals(first.events, second.events);
        assertEquals(first.book, second.book);
        assertVaried(first.events);
    }

    @Test
    void theSameHoldsWhenCapacityRunsOutAgainAndAgain() {
        List<Command> commands = commands(7, COMMANDS);
        Run first = run(commands, 24, 6);
        Run second = run(commands, 24, 6);

        assertEquals(first.events, second.events);
        assertEquals(first.book, second.book);
        assertTrue(first.events.stream().anyMatch(e -> e.contains("reason=BOOK_FULL")), "BOOK_FULL was exercised");
    }

    @Test
    void anEngineThatAlreadyRanOtherCommandsIsNotTheSameAsAFreshOne() {
        // Guard against a vacuous comparison: the state (ids, books) really depends on what came before.
        List<Command> commands = commands(42, 2_000);
        Run fresh = run(commands, 1_000, 1_000);
        List<Command> twice = new ArrayList<>(commands);
        twice.addAll(commands);
        Run longer = run(twice, 1_000, 1_000);
        assertEquals(fresh.events, longer.events.subList(0, fresh.events.size()));
        assertNotEquals(fresh.events, longer.events.subList(fresh.events.size(), longer.events.size()));
    }

    private static void assertVaried(List<String> events) {
        for (String kind : new String[] {"ACCEPTED ", "REJECTED ", "FILL ", "CANCELED ", "REPLACED ",
            "CANCEL_REJECTED ", "REPLACE_REJECTED ", "STATUS ", "status=PARTIALLY_FILLED", "status=FILLED"}) {
            assertTrue(events.stream().anyMatch(e -> e.startsWith(kind) || e.contains(" " + kind)),
                "the random flow should produce " + kind);
        }
        assertTrue(events.size() > COMMANDS, "events: " + events.size());
    }

    record Run(List<String> events, List<String> book) {
    }

    static Run run(List<Command> commands, int maxOrders, int maxLevels) {
        RecordingSink sink = new RecordingSink();
        MatchingEngine engine = new MatchingEngine(
            new EngineConfig(List.of(EngineHarness.ACME, EngineHarness.BETA), maxOrders, maxLevels), sink);
        List<String> events = new ArrayList<>();
        for (Command c : commands) {
            engine.process(c);
            events.addAll(sink.drain());
        }
        List<String> book = new ArrayList<>();
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            for (Side side : Side.values()) {
                engine.forEachRestingOrder(symbol, side, o -> book.add(EngineHarness.describe(o)));
            }
        }
        return new Run(events, book);
    }

    /**
     * A reproducible random flow over {@link EngineHarness#ACME} (symbol 0) and {@link EngineHarness#BETA}
     * (symbol 1): mostly valid orders around a mid price so that they cross often, every order type and time in
     * force, cancels, replaces and status requests of mostly existing ids, and a sprinkling of everything invalid
     * (unknown symbol, missing or duplicate id, bad quantity or price, wrong side or symbol, someone else's id).
     */
    static List<Command> commands(long seed, int count) {
        return commands(seed, count, 25, 8, 8);
    }

    /**
     * @param ids     client order ids per owner ("o0".."o{ids-1}"): few ids give many duplicates and reuses, many
     *                ids give many live orders (deep books, full indexes)
     * @param depth   a limit price is up to this many ticks behind the mid price on its own side (bids below, asks
     *                above): a large depth gives many levels
     * @param through ... or up to this many ticks through it: the larger, the more orders cross on arrival
     */
    static List<Command> commands(long seed, int count, int ids, int depth, int through) {
        Random random = new Random(seed);
        Map<String, int[]> known = new HashMap<>();   // owner/id -> {symbol, side} as last sent
        List<Command> commands = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int owner = 1 + random.nextInt(3);
            String id = random.nextInt(100) == 0 ? "" : "o" + random.nextInt(ids);
            int roll = random.nextInt(100);
            Command c = new Command();
            if (roll < 55) {
                int symbol = random.nextInt(200) == 0 ? 2 : random.nextInt(2);
                Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
                boolean market = random.nextInt(8) == 0;
                TimeInForce tif = switch (random.nextInt(10)) {
                    case 0, 1, 2, 3 -> TimeInForce.DAY;
                    case 4, 5 -> TimeInForce.GTC;
                    case 6, 7 -> TimeInForce.IOC;
                    default -> TimeInForce.FOK;
                };
                long price = market
                    ? (random.nextInt(3) == 0 ? random.nextInt(2_000) : 0)
                    : price(random, symbol, side, depth, through);
                c.newOrder(owner, id, symbol, side, market ? OrderType.MARKET : OrderType.LIMIT, tif, price,
                    quantity(random, symbol));
                known.put(owner + "/" + id, new int[] {symbol, side.ordinal()});
            } else if (roll < 90) {
                int target = random.nextInt(20) == 0 ? 1 + random.nextInt(3) : owner;
                String orig = "o" + random.nextInt(ids);
                int[] where = known.getOrDefault(target + "/" + orig, new int[] {0, 0});
                int symbol = random.nextInt(30) == 0 ? 1 - where[0] : where[0];
                Side side = Side.fromOrdinal(random.nextInt(30) == 0 ? 1 - where[1] : where[1]);
                if (roll < 70) {
                    c.cancel(owner, "c" + i, orig, symbol, side);
                } else {
                    c.replace(owner, id, orig, symbol, side,
                        price(random, where[0], Side.fromOrdinal(where[1]), depth, through),
                        quantity(random, where[0]));
                    known.put(owner + "/" + id, new int[] {where[0], where[1]});
                }
            } else {
                String asked = "o" + random.nextInt(ids);
                int[] where = known.getOrDefault(owner + "/" + asked, new int[] {0, 0});
                int symbol = random.nextInt(30) == 0 ? 1 - where[0] : where[0];
                Side side = Side.fromOrdinal(random.nextInt(30) == 0 ? 1 - where[1] : where[1]);
                c.orderStatus(owner, asked, symbol, side);
            }
            c.timestampNanos(1_000L * (i + 1) + random.nextInt(1_000));
            commands.add(c);
        }
        return commands;
    }

    private static long price(Random random, int symbol, Side side, int depth, int through) {
        int behind = random.nextInt(depth + through + 1) - through;
        int ticks = side == Side.BUY ? -behind : behind;
        if (symbol == 1) {
            return random.nextInt(150) == 0 ? random.nextInt(3) - 1 : 5_000 + ticks;
        }
        long price = 5_000 + 5L * ticks;
        return switch (random.nextInt(150)) {
            case 0 -> price + 1 + random.nextInt(4);        // off tick
            case 1 -> 0;
            case 2 -> 100_005;                              // above the maximum
            default -> price;
        };
    }

    private static long quantity(Random random, int symbol) {
        if (symbol == 1) {
            return random.nextInt(150) == 0 ? random.nextInt(3) - 1 : 1 + random.nextInt(120);
        }
        long qty = 10L * (1 + random.nextInt(15));
        return switch (random.nextInt(150)) {
            case 0 -> qty + 5;                              // off lot
            case 1 -> 0;
            case 2 -> 10_010;                               // above the maximum
            default -> qty;
        };
    }
}
