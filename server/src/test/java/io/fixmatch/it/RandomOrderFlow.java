package io.fixmatch.it;

import io.fixmatch.server.WaitBounds;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A client's random flow over some symbols: limit orders on both sides of a mid that overlap
 * (so they trade), cancels and replaces of earlier orders (some of which have traded away: rejected, which is
 * fine), IOC and market orders. It counts the quantity its fills report on the counted symbols
 * (both sides of every trade must be its own).
 */
public final class RandomOrderFlow {
    private final QfjClient client;
    private final Random random;
    private final List<String> traded;
    private final List<String> counted;
    private final List<String[]> orders = new ArrayList<>();
    private long next;
    private long barriers;
    private long tradedQuantityTwice;

    /**
     * @param traded  the symbols it trades
     * @param counted the symbols whose traded quantity it counts ({@link #tradedQuantity})
     */
    public RandomOrderFlow(QfjClient client, long seed, List<String> traded, List<String> counted) {
        this.client = client;
        this.random = new Random(seed);
        this.traded = List.copyOf(traded);
        this.counted = List.copyOf(counted);
    }

    public void run(int commands) throws InterruptedException {
        for (int i = 0; i < commands; i++) {
            command();
            if (i % 50 == 49) {
                drain(Duration.ZERO);
            }
        }
    }

    private void command() {
        String symbol = traded.get(random.nextInt(traded.size()));
        char side = random.nextBoolean() ? Side.BUY : Side.SELL;
        String id = "F" + next++;
        int roll = random.nextInt(100);
        if (roll < 55 || orders.isEmpty()) {
            client.send(Orders.limit(id, symbol, side, 1 + random.nextInt(20) * 5L, price(side, 12, 3)));
            orders.add(new String[] {id, symbol, String.valueOf(side)});
        } else if (roll < 72) {
            String[] order = orders.remove(random.nextInt(orders.size()));
            client.send(Orders.cancel(id, order[0], order[1], order[2].charAt(0)));
        } else if (roll < 88) {
            int at = random.nextInt(orders.size());
            String[] order = orders.get(at);
            char orderSide = order[2].charAt(0);
            client.send(Orders.replace(id, order[0], order[1], orderSide, 1 + random.nextInt(30) * 5L,
                price(orderSide, 12, 1)));
            orders.set(at, new String[] {id, order[1], order[2]});
        } else {
            NewOrderSingle order = new NewOrderSingle(new ClOrdID(id), new Side(side),
                new TransactTime(LocalDateTime.now(ZoneOffset.UTC)),
                new OrdType(roll < 96 ? OrdType.LIMIT : OrdType.MARKET));
            order.set(new Symbol(symbol));
            order.set(new OrderQty(1 + random.nextInt(40)));
            if (roll < 96) {
                order.set(new quickfix.field.Price(Double.parseDouble(price(side, 2, 6))));
            }
            order.set(new TimeInForce(TimeInForce.IMMEDIATE_OR_CANCEL));
            client.send(order);
        }
    }

    /** A price on the tick around 100.00: {@code behind} ticks behind the mid to {@code across} through it. */
    private String price(char side, int behind, int across) {
        int ticks = random.nextInt(behind + across + 1) - behind;
        int fromMid = side == Side.BUY ? ticks : -ticks;
        return BigDecimal.valueOf(10_000 + fromMid, 2).toPlainString();
    }

    /** Waits until every command sent so far is processed: the answer to a status request sent after them. */
    public void barrier() throws InterruptedException {
        String id = "BARRIER-" + barriers++;
        client.send(Orders.status(id, "AAPL", Side.BUY));
        long deadline = System.nanoTime() + WaitBounds.ANSWER.toNanos();
        while (!drain(Duration.ofMillis(50)).contains(id)) {
            assertFalse(System.nanoTime() > deadline, "order entry answered the barrier " + id);
        }
    }

    /** Takes what arrived, counting fills; returns the ClOrdIDs of status answers among them. */
    private List<String> drain(Duration wait) throws InterruptedException {
        List<String> statusAnswers = new ArrayList<>();
        Message message = client.pollApp(wait);
        while (message != null) {
            if ("F".equals(Orders.field(message, 150)) && counted.contains(Orders.field(message, 55))) {
                tradedQuantityTwice += Long.parseLong(Orders.field(message, 32)); // both sides are ours
            }
            if ("I".equals(Orders.field(message, 150))) {
                statusAnswers.add(Orders.field(message, 11));
            }
            message = client.pollApp(Duration.ZERO);
        }
        return statusAnswers;
    }

    public long tradedQuantity() {
        return tradedQuantityTwice / 2;
    }
}
