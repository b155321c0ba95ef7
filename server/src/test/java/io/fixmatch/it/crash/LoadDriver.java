package io.fixmatch.it.crash;

import io.fixmatch.it.Orders;
import quickfix.Message;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionNotFound;
import quickfix.field.ExpireTime;
import quickfix.field.Side;
import quickfix.field.TimeInForce;
import quickfix.fix44.NewOrderSingle;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One trader's order flow at a steady rate: 60% new day limit orders (a random symbol and side, 1..10 lots, limit
 * prices a few ticks either side of a mid so that some rest and some trade, with the other sessions as well as
 * its own; a share of them, if asked, good till a time 1 to 3 s ahead, so that the cluster's timer expires those that
 * rest), 20% cancels and 20% cancel/replaces of orders it believes live. It sends only while the session is
 * logged on and the flow is not paused; a message QuickFIX/J numbers just as the connection drops is stored by
 * QuickFIX/J and resent when the server asks. Runs on its own thread until {@link #stop()}.
 */
final class LoadDriver implements Runnable {
    private static final long MID_CENTS = 10_000;

    private final SessionID sessionId;
    private final String clOrdIdPrefix;
    private final OpenOrders open;
    private final List<String> symbols;
    private final SplittableRandom random;
    private final long periodNanos;
    /** Of the new orders, the percentage good till a time (GTD with ExpireTime); 0: none (and no draw for it). */
    private final int gtdPercent;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean paused;
    private long next;
    private int counter;

    LoadDriver(SessionID sessionId, OpenOrders open, List<String> symbols, long seed, int ratePerSecond,
               int gtdPercent) {
        this.sessionId = sessionId;
        this.clOrdIdPrefix = sessionId.getSenderCompID() + "-";
        this.open = open;
        this.symbols = symbols;
        this.random = new SplittableRandom(seed);
        this.periodNanos = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
        this.gtdPercent = gtdPercent;
        this.thread = new Thread(this, "load-" + sessionId.getSenderCompID());
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Holds the flow (while the server restarts and the resends settle) until {@link #resume()}. */
    void pause() {
        paused = true;
    }

    void resume() {
        paused = false;
    }

    void stop() throws InterruptedException {
        running = false;
        thread.join(TimeUnit.SECONDS.toMillis(10));
    }

    @Override
    public void run() {
        next = System.nanoTime();
        while (running) {
            long now = System.nanoTime();
            if (now < next) {
                LockSupport.parkNanos(next - now);
                continue;
            }
            Session session = Session.lookupSession(sessionId);
            if (paused || session == null || !session.isLoggedOn()) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                next = System.nanoTime();
                continue;
            }
            // After a stall, carry on at the rate rather than in a burst.
            next = now - next > TimeUnit.SECONDS.toNanos(1) ? now + periodNanos : next + periodNanos;
            send(nextMessage());
        }
    }

    private Message nextMessage() {
        int roll = random.nextInt(100);
        OpenOrders.Open target = roll < 60 ? null : open.take(random);
        String clOrdId = clOrdIdPrefix + ++counter;
        if (target == null) {
            char side = random.nextBoolean() ? Side.BUY : Side.SELL;
            NewOrderSingle order = Orders.limit(clOrdId, symbols.get(random.nextInt(symbols.size())), side,
                1 + random.nextInt(10), price(side));
            if (gtdPercent > 0 && random.nextInt(100) < gtdPercent) { // no draw without GTDs: the flow stays as it was
                order.set(new TimeInForce(TimeInForce.GOOD_TILL_DATE));
                order.set(new ExpireTime(LocalDateTime.now(ZoneOffset.UTC).plusNanos(
                    TimeUnit.MILLISECONDS.toNanos(1_000 + random.nextInt(2_000)))));
            }
            return order;
        }
        if (roll < 80) {
            return Orders.cancel(clOrdId, target.clOrdId(), target.symbol(), target.side());
        }
        return Orders.replace(clOrdId, target.clOrdId(), target.symbol(), target.side(),
            target.cumQty() + 1 + random.nextInt(10), price(target.side()));
    }

    /** A buy 4 ticks under to 3 over the mid, a sell 3 under to 4 over: the two sides overlap, so orders trade. */
    private String price(char side) {
        long offset = side == Side.BUY ? random.nextInt(-4, 4) : random.nextInt(-3, 5);
        long cents = MID_CENTS + offset;
        return cents / 100 + "." + String.format("%02d", cents % 100);
    }

    private void send(Message message) {
        try {
            Session.sendToTarget(message, sessionId); // false when the connection just dropped: stored, resent later
        } catch (SessionNotFound e) {
            throw new IllegalStateException(e);
        }
    }
}
