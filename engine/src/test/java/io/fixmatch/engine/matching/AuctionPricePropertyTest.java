package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.api.TradingPhase;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The uncross price against a brute-force search (docs/MATCHING.md, "The uncross"): thousands of random call books
 * (limit orders on a few prices with gaps, market orders, a reference price or none; icebergs, whose hidden part
 * counts) in an opening call; the engine's indicative price and volume must equal the best of every price on the tick
 * from the lowest to the highest limit price, judged by volume, then imbalance, then distance to the reference, then
 * the lower price; and at the uncross exactly that volume trades, all at that price.
 */
class AuctionPricePropertyTest {
    private static final SymbolSpec SPEC = new SymbolSpec("AUCT", 2, 5, 1, 1_000_000, 1_000_000);
    private static final long HOUR = 3_600_000L;
    /** 2023-11-15 08:10 UTC: inside the opening call of 08:00-08:30. */
    private static final long IN_CALL = 1_700_035_800_000_000_000L;

    private record Resting(Side side, boolean market, long price, long quantity) {
    }

    @Test
    void theIndicativeUncrossIsTheBruteForceBestAndTheUncrossTradesExactlyIt() {
        SplittableRandom random = new SplittableRandom(2024);
        int crossed = 0;
        int gapWins = 0;
        for (int round = 0; round < 3_000; round++) {
            List<Long> fills = new ArrayList<>();
            List<Long> fillPrices = new ArrayList<>();
            MatchingEngine engine = new MatchingEngine(new EngineConfig(List.of(SPEC), 1_000, 1_000), e -> {
                if (e.type() == EventType.FILL && e.side() == Side.BUY) {
                    fills.add(e.lastQuantity());
                    fillPrices.add(e.lastPrice());
                }
            });
            long t = IN_CALL;
            Command command = new Command();
            long reference = random.nextInt(3) == 0 ? 0 : 5 * (1_000 + random.nextInt(-30, 31)) + random.nextInt(3);
            if (reference > 0) {
                engine.process(command.setReferencePrice(0, reference).timestampNanos(t++));
            }
            long[] times = {8 * HOUR, 8 * HOUR + 1_800_000, 16 * HOUR, 16 * HOUR + 1_800_000};
            SymbolControl[] controls = {SymbolControl.OPENING_CALL, SymbolControl.OPENING_UNCROSS,
                SymbolControl.CLOSING_CALL, SymbolControl.CLOSING_UNCROSS};
            for (int i = 0; i < 4; i++) {
                engine.process(command.setSymbolControl(0, controls[i], times[i]).timestampNanos(t++));
            }
            assertEquals(TradingPhase.OPENING_CALL, engine.phase(0));
            List<Resting> book = new ArrayList<>();
            int orders = 1 + random.nextInt(12);
            long[] prices = new long[4 + random.nextInt(5)];
            for (int i = 0; i < prices.length; i++) {
                prices[i] = 5 * (1_000 + random.nextInt(-25, 26));
            }
            for (int i = 0; i < orders; i++) {
                Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
                boolean market = random.nextInt(6) == 0;
                long price = market ? 0 : prices[random.nextInt(prices.length)];
                long quantity = 1 + random.nextInt(50);
                command.newOrder(1 + i % 3, "o" + i, 0, side, market ? OrderType.MARKET : OrderType.LIMIT,
                    TimeInForce.DAY, price, quantity).timestampNanos(t++);
                if (!market && random.nextInt(5) == 0) {
                    command.maxFloor(1 + random.nextInt((int) quantity));
                }
                engine.process(command);
                book.add(new Resting(side, market, price, quantity));
            }
            long[] expected = bruteForce(book, reference);
            assertEquals(expected[0] + "/" + expected[1], engine.indicative(0)[0] + "/" + engine.indicative(0)[1],
                "round " + round + ": " + book + " reference " + reference);
            if (expected[1] > 0) {
                crossed++;
                if (book.stream().noneMatch(r -> !r.market && r.price == expected[0])) {
                    gapWins++;
                }
            }
            engine.process(command.timer().timestampNanos(IN_CALL + 30 * 60_000_000_000L)); // past the uncross
            assertEquals(TradingPhase.CONTINUOUS, engine.phase(0));
            assertEquals(expected[1], fills.stream().mapToLong(Long::longValue).sum(), "volume traded, round " + round);
            assertTrue(fillPrices.stream().allMatch(p -> p == expected[0]), "one price, round " + round);
        }
        assertTrue(crossed > 1_500, "books that uncross: " + crossed);
        assertTrue(gapWins > 20, "uncross prices between two limit prices (the reference's pull): " + gapWins);
    }

    /** Every tick from the lowest to the highest limit price (none: the reference), judged as the document says. */
    private static long[] bruteForce(List<Resting> book, long reference) {
        long low = Long.MAX_VALUE;
        long high = Long.MIN_VALUE;
        for (Resting r : book) {
            if (!r.market) {
                low = Math.min(low, r.price);
                high = Math.max(high, r.price);
            }
        }
        if (low == Long.MAX_VALUE) {
            if (reference == 0) {
                return new long[2];
            }
            low = reference;
            high = reference;
        }
        long bestPrice = 0;
        long bestVolume = -1;
        long bestImbalance = 0;
        long bestDistance = 0;
        for (long p = low; p <= high; p += SPEC.tickSize()) {
            long buys = 0;
            long sells = 0;
            for (Resting r : book) {
                if (r.side == Side.BUY && (r.market || r.price >= p)) {
                    buys += r.quantity;
                } else if (r.side == Side.SELL && (r.market || r.price <= p)) {
                    sells += r.quantity;
                }
            }
            long volume = Math.min(buys, sells);
            long imbalance = Math.abs(buys - sells);
            long distance = reference == 0 ? 0 : Math.abs(p - reference);
            if (volume > bestVolume || (volume == bestVolume && (imbalance < bestImbalance
                || (imbalance == bestImbalance && distance < bestDistance)))) {
                bestPrice = p;
                bestVolume = volume;
                bestImbalance = imbalance;
                bestDistance = distance;
            }
        }
        return bestVolume <= 0 ? new long[2] : new long[] {bestPrice, bestVolume};
    }
}
