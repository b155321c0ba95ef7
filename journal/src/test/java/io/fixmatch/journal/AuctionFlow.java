package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.api.TimeInForce;

/**
 * {@link TestFlow} on a trading schedule: symbol 0 (AAPL) with an opening call 08:00-12:00 and a closing call
 * 12:00-20:00 UTC (so half of every day is a call, and both uncrosses come daily), symbol 1 (MSFT) with a volatility
 * band of 10 basis points and interruptions of 30 s; every tenth command an At the Opening or At the Close order on
 * symbol 0. Meant for a loop whose clock moves 20 s per command ({@link #CLOCK_STEP_NANOS}): a day passes every 4,320
 * commands. Command {@code n} is always the same command.
 */
final class AuctionFlow {
    static final long CLOCK_STEP_NANOS = 20_000_000_000L;
    /** 2023-11-15 06:00 UTC: closed, the opening call two hours of commands away. */
    static final long START_NANOS = 1_700_028_000_000_000_000L;
    private static final long HOUR = 3_600_000L;

    private final TestFlow orders;
    private final Command[] settings = {
        new Command().setSymbolControl(0, SymbolControl.OPENING_CALL, 8 * HOUR),
        new Command().setSymbolControl(0, SymbolControl.OPENING_UNCROSS, 12 * HOUR),
        new Command().setSymbolControl(0, SymbolControl.CLOSING_CALL, 12 * HOUR),
        new Command().setSymbolControl(0, SymbolControl.CLOSING_UNCROSS, 20 * HOUR),
        new Command().setSymbolControl(0, SymbolControl.RANDOM_END_MILLIS, 600_000),
        new Command().setSymbolControl(1, SymbolControl.VOLATILITY_BAND_BASIS_POINTS, 10),
        new Command().setSymbolControl(1, SymbolControl.INTERRUPTION_MILLIS, 30_000)};
    private long n;

    AuctionFlow(long seed) {
        orders = new TestFlow(seed);
    }

    /** Fills {@code command} with the next command of the stream. */
    Command next(Command command) {
        long i = n++;
        if (i < settings.length) {
            command.copyFrom(settings[(int) i]);
            return command;
        }
        if (i % 10 == 5) {
            Side side = i % 20 < 10 ? Side.BUY : Side.SELL;
            boolean market = i % 30 == 5;
            long mid = orders.mid(0);
            return command.newOrder(1 + (int) (i % 3), "a" + i, 0, side, market ? OrderType.MARKET : OrderType.LIMIT,
                i % 40 < 20 ? TimeInForce.AT_THE_OPENING : TimeInForce.AT_THE_CLOSE, market ? 0
                    : mid + (side == Side.BUY ? -1 : 1) * (i % 7 - 3), 1 + i % 13);
        }
        return orders.next(command);
    }
}
