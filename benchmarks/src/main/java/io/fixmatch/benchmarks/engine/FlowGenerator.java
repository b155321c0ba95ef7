package io.fixmatch.benchmarks.engine;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.MatchingEngine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Generates one cycle of a volatile-market order flow by sending it through a real engine (so it knows exactly
 * which orders are live, filled or gone), keeping every command it sent. Replaying the cycle against the same
 * starting book gives the same events, and the cycle ends with the book exactly as it started, so it can be
 * replayed over and over.
 *
 * <p>The flow, per command (percentages of the {@code steps} generated commands; the closing cancels of the cycle
 * come on top):
 * <ul>
 *   <li>{@code aggressivePercent}: an IOC limit order that crosses the spread by up to 2 ticks and takes what is
 *       there (up to 1,500), the remainder canceled;</li>
 *   <li>{@code replacePercent}: a cancel/replace of a live order to a new price near the current mid and a new
 *       quantity (re-quoting);</li>
 *   <li>{@code lateCancelPercent}: a cancel of an order that has already gone (filled or canceled): rejected,
 *       UNKNOWN_ORDER, as when a cancel crosses a fill;</li>
 *   <li>the rest: a passive limit order 1..10 ticks from the mid (more near it) on the passive side, never
 *       crossing, or a cancel of a live order (of two picked at random, the one farther from the mid: stale
 *       quotes go first); adds or cancels are chosen so that about {@link #TARGET_LIVE} flow orders stay live,
 *       so adds and cancels come in about equal numbers and about all added orders end canceled.</li>
 * </ul>
 * The mid moves one tick up or down about every 20 commands, within {@link #MID_RANGE} ticks of the center.
 * Eight traders (owners 10..17) send the flow. All flow prices stay within 55 ticks of the center; the book the
 * flow runs against starts {@link #BACKGROUND_OFFSET} ticks out, so the flow never trades with it and it stays
 * as it was, whatever its size. At the end of the cycle every flow order still live is canceled.
 */
final class FlowGenerator {
    static final long BACKGROUND_OFFSET = 100;
    static final long MID_RANGE = 40;
    static final long MAX_OFFSET = 10;
    static final int TARGET_LIVE = 1000;
    static final int OWNERS = 8;
    static final int FIRST_OWNER = 10;
    static final int RECENTLY_DEAD = 256;

    private final int aggressivePercent;
    private final int replacePercent;
    private final int lateCancelPercent;
    private final SplittableRandom random;

    private final List<Command> commands = new ArrayList<>();
    private final List<Live> live = new ArrayList<>();
    private final Map<Long, Live> liveByOrderId = new HashMap<>();
    private final TreeMap<Long, Integer> liveBids = new TreeMap<>();
    private final TreeMap<Long, Integer> liveAsks = new TreeMap<>();
    private final Live[] dead = new Live[RECENTLY_DEAD];
    private int deadCount;
    private long mid = Fixture.CENTER;
    private int nextId;
    private Live pendingAdd;
    private int maxLive;

    /** What the generated cycle holds, by kind of command. */
    long passiveAdds;
    long aggressive;
    long replaces;
    long cancels;
    long lateCancels;
    long closingCancels;

    FlowGenerator(long seed, int aggressivePercent, int replacePercent, int lateCancelPercent) {
        if (aggressivePercent < 0 || replacePercent < 0 || lateCancelPercent < 0
            || aggressivePercent + replacePercent + lateCancelPercent > 90) {
            throw new IllegalArgumentException("aggressive + replace + late cancel percentages must be 0..90");
        }
        this.aggressivePercent = aggressivePercent;
        this.replacePercent = replacePercent;
        this.lateCancelPercent = lateCancelPercent;
        this.random = new SplittableRandom(seed);
    }

    private static final class Live {
        final int owner;
        final Side side;
        String id;
        long price;
        long cum;
        long orderId;
        int slot;

        Live(int owner, Side side, String id, long price) {
            this.owner = owner;
            this.side = side;
            this.id = id;
            this.price = price;
        }
    }

    /**
     * Sends {@code steps} commands of the flow and then the cancels that close it through {@code engine} (whose
     * sink must be {@code sink}), and returns them all, in order, to be replayed.
     */
    Command[] generate(MatchingEngine engine, CountingSink sink, int steps) {
        EventSink tracker = this::track;
        sink.tap(tracker);
        try {
            for (int step = 0; step < steps; step++) {
                moveMid();
                send(engine, nextCommand());
            }
            // Close the cycle: cancel every flow order still live, so the book is back where it started.
            while (!live.isEmpty()) {
                Live order = live.get(live.size() - 1);
                closingCancels++;
                send(engine, Fixture.cancel(order.owner, "x" + nextId++, order.id, order.side));
            }
        } finally {
            sink.tap(null);
        }
        return commands.toArray(new Command[0]);
    }

    int maxLive() {
        return maxLive;
    }

    String describe() {
        double total = commands.size();
        return String.format("%,d commands: passive adds %.1f%%, aggressive IOC %.1f%%, replaces %.1f%%, "
                + "cancels %.1f%% (of which late, rejected %.1f%%, closing the cycle %.1f%%); "
                + "at most %,d flow orders live",
            commands.size(), 100 * passiveAdds / total, 100 * aggressive / total, 100 * replaces / total,
            100 * (cancels + lateCancels + closingCancels) / total, 100 * lateCancels / total,
            100 * closingCancels / total, maxLive);
    }

    private void send(MatchingEngine engine, Command command) {
        commands.add(command);
        engine.process(command);
        if (pendingAdd != null) {
            throw new IllegalStateException("passive order not accepted: " + command);
        }
        maxLive = Math.max(maxLive, live.size());
    }

    private void moveMid() {
        if (random.nextInt(20) != 0) {
            return;
        }
        long step = random.nextBoolean() ? 1 : -1;
        if (Math.abs(mid + step - Fixture.CENTER) > MID_RANGE) {
            step = -step;
        }
        mid += step;
    }

    private Command nextCommand() {
        int roll = random.nextInt(100);
        if (roll < aggressivePercent) {
            return aggressiveOrder();
        }
        roll -= aggressivePercent;
        if (roll < replacePercent && !live.isEmpty()) {
            return replace();
        }
        roll -= replacePercent;
        if (roll < lateCancelPercent && deadCount > 0) {
            return lateCancel();
        }
        boolean add = live.isEmpty() || random.nextInt(100) < (live.size() < TARGET_LIVE ? 60 : 40);
        return add ? passiveAdd() : cancel();
    }

    private Command passiveAdd() {
        Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        int owner = FIRST_OWNER + random.nextInt(OWNERS);
        long price = passivePrice(side);
        long quantity = 100L * (1 + random.nextInt(10));
        Live order = new Live(owner, side, "f" + nextId++, price);
        pendingAdd = order;
        passiveAdds++;
        return Fixture.limit(owner, order.id, side, price, quantity);
    }

    /** 1..10 ticks from the mid, more often near it, and never at or through the best opposite flow price. */
    private long passivePrice(Side side) {
        long offset = Math.min(MAX_OFFSET, 1 + (long) (-Math.log(1 - random.nextDouble()) * 2.5));
        if (side == Side.BUY) {
            long price = mid - offset;
            return liveAsks.isEmpty() ? price : Math.min(price, liveAsks.firstKey() - 1);
        }
        long price = mid + offset;
        return liveBids.isEmpty() ? price : Math.max(price, liveBids.lastKey() + 1);
    }

    private Command aggressiveOrder() {
        Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        int owner = FIRST_OWNER + random.nextInt(OWNERS);
        long through = random.nextInt(3);
        long price;
        if (side == Side.BUY) {
            price = (liveAsks.isEmpty() ? mid + 1 : liveAsks.firstKey()) + through;
        } else {
            price = (liveBids.isEmpty() ? mid - 1 : liveBids.lastKey()) - through;
        }
        long quantity = 100L * (1 + random.nextInt(15));
        aggressive++;
        return Fixture.limit(owner, "g" + nextId++, side, TimeInForce.IOC, price, quantity);
    }

    private Command replace() {
        Live order = live.get(random.nextInt(live.size()));
        long price = passivePrice(order.side);
        long quantity = order.cum + 100L * (1 + random.nextInt(10));
        replaces++;
        return Fixture.replace(order.owner, "f" + nextId++, order.id, order.side, price, quantity);
    }

    private Command cancel() {
        Live a = live.get(random.nextInt(live.size()));
        Live b = live.get(random.nextInt(live.size()));
        Live order = Math.abs(a.price - mid) >= Math.abs(b.price - mid) ? a : b;
        cancels++;
        return Fixture.cancel(order.owner, "x" + nextId++, order.id, order.side);
    }

    private Command lateCancel() {
        Live order = dead[random.nextInt(deadCount)];
        lateCancels++;
        return Fixture.cancel(order.owner, "x" + nextId++, order.id, order.side);
    }

    /** Follows the engine's events to keep the set of live flow orders exact. */
    private void track(ExecutionEvent event) {
        EventType type = event.type();
        if (type == EventType.ACCEPTED) {
            if (pendingAdd != null) {
                Live order = pendingAdd;
                pendingAdd = null;
                order.orderId = event.orderId();
                order.slot = live.size();
                live.add(order);
                liveByOrderId.put(order.orderId, order);
                priceCounts(order.side).merge(order.price, 1, Integer::sum);
            }
            return;
        }
        Live order = liveByOrderId.get(event.orderId());
        if (order == null) {
            if (type == EventType.REJECTED || type == EventType.REPLACE_REJECTED) {
                throw new IllegalStateException("flow command refused: " + event);
            }
            return;
        }
        switch (type) {
            case FILL -> {
                order.cum = event.cumQuantity();
                if (event.leavesQuantity() == 0) {
                    remove(order);
                }
            }
            case CANCELED -> remove(order);
            case REPLACED -> {
                order.id = event.clientOrderId().toString();
                removePrice(order);
                order.price = event.price();
                priceCounts(order.side).merge(order.price, 1, Integer::sum);
            }
            case CANCEL_REJECTED, REPLACE_REJECTED, REJECTED ->
                throw new IllegalStateException("flow command on a live order refused: " + event);
            default -> {
            }
        }
    }

    private TreeMap<Long, Integer> priceCounts(Side side) {
        return side == Side.BUY ? liveBids : liveAsks;
    }

    private void removePrice(Live order) {
        TreeMap<Long, Integer> counts = priceCounts(order.side);
        int left = counts.get(order.price) - 1;
        if (left == 0) {
            counts.remove(order.price);
        } else {
            counts.put(order.price, left);
        }
    }

    private void remove(Live order) {
        Live last = live.remove(live.size() - 1);
        if (last != order) {
            live.set(order.slot, last);
            last.slot = order.slot;
        }
        liveByOrderId.remove(order.orderId);
        removePrice(order);
        if (deadCount < RECENTLY_DEAD) {
            dead[deadCount++] = order;
        } else {
            dead[random.nextInt(RECENTLY_DEAD)] = order;
        }
    }

    /** Kinds of command per cycle, for checks. */
    long[] counts() {
        return new long[] {passiveAdds, aggressive, replaces, cancels, lateCancels, closingCancels};
    }

    @Override
    public String toString() {
        return describe() + " " + Arrays.toString(counts());
    }
}
