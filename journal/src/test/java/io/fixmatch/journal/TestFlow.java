package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded, reproducible stream of commands for the journal tests: limit orders around a drifting mid that rest
 * and trade, market/IOC/FOK orders, cancels and replaces of recent orders (some already finished), a few invalid
 * commands. Command {@code n} always has client order id {@code "c" + n}, so events can be traced back to it.
 */
final class TestFlow {
    static final List<SymbolSpec> SYMBOLS = List.of(
        SymbolSpec.of("AAPL", 2, 1, 1), SymbolSpec.of("MSFT", 2, 5, 10), SymbolSpec.of("GOOG", 4, 100, 1));
    static final EngineConfig ENGINE = new EngineConfig(SYMBOLS, 100_000, 20_000);

    private final SplittableRandom random;
    private final long[] mids = {15_000, 30_000, 1_400_000};
    private long next;
    /** The last orders sent (ring), so cancels and replaces mostly name real ones, some already finished. */
    private final int[] recentOwner = new int[64];
    private final int[] recentSymbol = new int[64];
    private final Side[] recentSide = new Side[64];
    private final long[] recentId = new long[64];
    private int recentCount;

    /** One encoded buy order of owner 1 on the first symbol, named by its ClOrdID (for tests of single appends). */
    static UnsafeBuffer encodedOrder(String clOrdId) {
        Command command = new Command().newOrder(1, clOrdId, 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 10_000, 100)
            .inboundPosition(7);
        byte[] bytes = new byte[CommandCodec.encodedLength(command)];
        UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        CommandCodec.encode(command, buffer, 0);
        return buffer;
    }

    TestFlow(long seed) {
        random = new SplittableRandom(seed);
    }

    /** The symbol's mid now (it drifts as the stream goes). */
    long mid(int symbol) {
        return mids[symbol];
    }

    /** Fills {@code command} with the next command of the stream. */
    Command next(Command command) {
        long n = next++;
        int owner = 1 + random.nextInt(3);
        int symbol = random.nextInt(SYMBOLS.size());
        SymbolSpec spec = SYMBOLS.get(symbol);
        mids[symbol] = Math.max(50 * spec.tickSize(), mids[symbol] + (random.nextInt(3) - 1) * spec.tickSize());
        Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        long price = mids[symbol] / spec.tickSize() * spec.tickSize()
            + (side == Side.BUY ? -1 : 1) * random.nextInt(-2, 8) * spec.tickSize();
        long quantity = spec.lotSize() * (1 + random.nextInt(20));
        String id = "c" + n;
        int dice = random.nextInt(100);
        if (dice >= 53 && dice < 97 && recentCount > 0) {
            int r = random.nextInt(Math.min(recentCount, recentOwner.length));
            owner = recentOwner[r];
            symbol = recentSymbol[r];
            side = recentSide[r];
            String recent = "c" + recentId[r];
            if (dice < 85) {
                return command.cancel(owner, id, recent, symbol, side);
            }
            recentId[r] = n; // if the replace succeeds, the order goes by its new id from now on
            return command.replace(owner, id, recent, symbol, side, price, quantity);
        }
        if (dice < 45) {
            int r = recentCount++ % recentOwner.length;
            recentOwner[r] = owner;
            recentSymbol[r] = symbol;
            recentSide[r] = side;
            recentId[r] = n;
            return command.newOrder(owner, id, symbol, side, OrderType.LIMIT, TimeInForce.DAY, price, quantity);
        }
        if (dice < 50) {
            TimeInForce tif = random.nextBoolean() ? TimeInForce.IOC : TimeInForce.FOK;
            return command.newOrder(owner, id, symbol, side, OrderType.LIMIT, tif, price, quantity);
        }
        if (dice < 53) {
            return command.newOrder(owner, id, symbol, side, OrderType.MARKET, TimeInForce.IOC, 0, quantity);
        }
        return command.newOrder(owner, id, symbol, side, OrderType.LIMIT, TimeInForce.GTC, price + 1, 0);
    }
}
