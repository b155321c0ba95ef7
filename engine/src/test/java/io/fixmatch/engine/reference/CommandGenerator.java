package io.fixmatch.engine.reference;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.reference.ReferenceEngine.RefOrder;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded stream of realistic commands: three symbols with different ticks and lots, three owners, prices around a
 * mid that random-walks, every order type and time in force, cancels and replaces of live orders (and now and then
 * of unknown, finished or mismatched ones), status requests, the operator's halts, resumes and book queries, and a
 * small share of invalid requests; each owner's pre-trade risk limits and self-trade prevention mode (set at the start,
 * changed now and then), kill switches engaged and released, reference prices, and end-of-day expiries; orders with
 * attributes (stop and stop-limit orders around the last trade, icebergs, post-only, GTD orders expiring within a few
 * hundred steps, IOC with MinQty; now and then an invalid combination) and TIMER commands; a trading schedule on
 * symbol 2 (opening and closing auctions, a random end now and then, UTC or London time), a volatility band and
 * interruption length on symbols 0 and 1 (short interruptions, halts reopening by auction), jumps of hours in time
 * so that the schedule's points pass often, At the Opening and At the Close orders.
 *
 * <p>About one step in 200 is not processed but refused ({@code MatchingEngine.refuse}, as the loop does when it
 * cannot journal a command). To aim cancels and replaces at live orders it reads the {@link ReferenceEngine}'s state (never the real
 * engine's); for a given seed the stream is fully determined. Every call returns a fresh {@link Command}.
 */
public final class CommandGenerator {

    /** Symbol 0: tick 1, lot 1. Symbol 1: tick 5, lot 100. Symbol 2: tick 25, lot 10, low price and size limits. */
    public static final List<SymbolSpec> SYMBOLS = List.of(
        new SymbolSpec("AAA", 2, 1, 1, 100_000_000L, 1_000_000L),
        new SymbolSpec("BBB", 4, 5, 100, 10_000_000_000L, 100_000_000L),
        new SymbolSpec("CCC", 2, 25, 10, 200_000L, 50_000L));

    /** Session numbers, owner 0 included. */
    public static final int[] OWNERS = {0, 1, 20};

    private static final long[] INITIAL_MID_TICKS = {10_000, 500_000, 4_000};

    private final Random random;
    private final ReferenceEngine reference;
    private final long[] midTicks = INITIAL_MID_TICKS.clone();
    private final int[] nextIdNumber = new int[OWNERS.length];
    /** Every client order id each owner has used for an order (live or not), for "finished order" requests. */
    private final List<List<String>> usedIds = new ArrayList<>();
    private long timestamp = 1_700_000_000_000_000_000L;
    /** Settings commands still to send before the flow goes on (the initial configuration, a change). */
    private final ArrayDeque<Command> settings = new ArrayDeque<>();

    public CommandGenerator(long seed, ReferenceEngine reference) {
        this.random = new Random(seed);
        this.reference = reference;
        for (int i = 0; i < OWNERS.length; i++) {
            usedIds.add(new ArrayList<>());
        }
        for (int owner : OWNERS) {
            queueSettings(owner);
        }
        queueSymbolSettings();
    }

    /** Schedules and volatility settings; each change is one journaled command, as the server sends them. */
    private void queueSymbolSettings() {
        long hour = 3_600_000L;
        boolean scheduled = random.nextInt(6) != 0;
        long[] times = scheduled ? new long[] {8 * hour, 8 * hour + 1_800_000, 16 * hour, 16 * hour + 1_800_000}
            : new long[] {-1, -1, -1, -1};
        SymbolControl[] controls = {SymbolControl.OPENING_CALL, SymbolControl.OPENING_UNCROSS,
            SymbolControl.CLOSING_CALL, SymbolControl.CLOSING_UNCROSS};
        settings.add(new Command().setSymbolTimeZone(2, random.nextBoolean() ? "UTC" : "Europe/London"));
        settings.add(new Command().setSymbolControl(2, SymbolControl.RANDOM_END_MILLIS,
            random.nextBoolean() ? 0 : 120_000));
        for (int i = 0; i < 4; i++) {
            settings.add(new Command().setSymbolControl(2, controls[i], times[i]));
        }
        long[] bands = {0, 8, 15, 30};
        settings.add(new Command().setSymbolControl(0, SymbolControl.VOLATILITY_BAND_BASIS_POINTS,
            bands[1 + random.nextInt(3)]));
        settings.add(new Command().setSymbolControl(0, SymbolControl.INTERRUPTION_MILLIS, random.nextInt(3)));
        settings.add(new Command().setSymbolControl(1, SymbolControl.VOLATILITY_BAND_BASIS_POINTS,
            bands[random.nextInt(bands.length)]));
        settings.add(new Command().setSymbolControl(1, SymbolControl.INTERRUPTION_MILLIS, 1 + random.nextInt(2)));
    }

    /**
     * Random settings for one owner, limits that bite now and then in this flow: quantities mostly 1..12 lots, now
     * and then 10..99; about a hundred open orders per owner; prices a few ticks around a walking mid. Owners 1 and
     * 20 are often one firm.
     */
    private void queueSettings(int owner) {
        long[] quantities = {0, 0, 40, 300, 5_000};
        long[] notionals = {0, 0, 2_000, 50_000, 1_000_000};
        long[] openOrders = {0, 15, 15, 40, 90};
        long[] basisPoints = {0, 0, 10, 40, 200};
        long[] ticks = {0, 0, 3, 12};
        settings.add(new Command().setSessionControl(owner, SessionControl.MAX_ORDER_QUANTITY,
            quantities[random.nextInt(quantities.length)]));
        settings.add(new Command().setSessionControl(owner, SessionControl.MAX_NOTIONAL,
            notionals[random.nextInt(notionals.length)]));
        settings.add(new Command().setSessionControl(owner, SessionControl.MAX_OPEN_ORDERS,
            openOrders[random.nextInt(openOrders.length)]));
        long bp = basisPoints[random.nextInt(basisPoints.length)];
        settings.add(new Command().setSessionControl(owner, SessionControl.PRICE_COLLAR_BASIS_POINTS, bp));
        settings.add(new Command().setSessionControl(owner, SessionControl.PRICE_COLLAR_TICKS,
            bp != 0 ? 0 : ticks[random.nextInt(ticks.length)]));
        settings.add(new Command().setSessionControl(owner, SessionControl.FIRM,
            owner != 0 && random.nextInt(3) != 0 ? 7 : random.nextInt(2) * (100 + owner)));
        SelfTradePrevention[] modes = SelfTradePrevention.values();
        settings.add(new Command().setSessionControl(owner, SessionControl.SELF_TRADE_PREVENTION,
            modes[random.nextInt(modes.length)].code()));
    }

    /** A command for {@code MatchingEngine.process}, or (rarely) one to {@code refuse} with a reason. */
    public record Step(Command command, RejectReason refusal) {
        @Override
        public String toString() {
            return refusal == null ? command.toString() : "refuse(" + refusal + ") " + command;
        }
    }

    public Step next() {
        walkMids();
        timestamp += 1 + random.nextInt(5_000);
        if (random.nextInt(250) == 0) { // the clock moves on by hours: the schedule's points pass
            timestamp += (1 + random.nextInt(5 * 60)) * 60_000_000_000L;
        }
        Command command = generate();
        command.timestampNanos(timestamp);
        if (command.type() != CommandType.CANCEL_ALL_FOR_OWNER && random.nextInt(200) == 0) {
            // The loop could not journal it, or is overloaded: answered without being looked at.
            return new Step(command, random.nextBoolean() ? RejectReason.JOURNAL_UNAVAILABLE
                : RejectReason.SERVER_BUSY);
        }
        return new Step(command, null);
    }

    private Command generate() {
        if (!settings.isEmpty()) {
            return settings.removeFirst();
        }
        int live = reference.liveCount();
        // Keep the books at a few hundred orders: cancel more when they grow.
        double cancelShare = live > 500 ? 0.30 : live > 300 ? 0.12 : live > 160 ? 0.05 : 0.02;
        double r = random.nextDouble();
        if (r < 0.05) {
            return invalidNewOrder();
        }
        r -= 0.05;
        if (r < 0.50) {
            return newOrder();
        }
        r -= 0.50;
        if (r < cancelShare) {
            return cancel();
        }
        r -= cancelShare;
        if (r < 0.16) {
            return replace();
        }
        r -= 0.16;
        if (r < 0.0005) {
            return new Command().cancelAllForOwner(randomOwner());
        }
        r -= 0.0005;
        if (r < 0.002) { // the operator halts a symbol now and then; each halt lasts about 100 steps
            return new Command().haltSymbol(random.nextInt(SYMBOLS.size()));
        }
        r -= 0.002;
        if (r < 0.01 && !reference.haltedSymbols().isEmpty()) {
            List<Integer> halted = new ArrayList<>(reference.haltedSymbols());
            return new Command().resumeSymbol(halted.get(random.nextInt(halted.size())));
        }
        r -= 0.01;
        if (r < 0.002) { // read-only: must change nothing and tell no one
            return new Command().bookQuery(random.nextInt(SYMBOLS.size()), random.nextInt(1000));
        }
        r -= 0.002;
        if (r < 0.0004) { // the operator or a lost connection: the owner's orders go, new ones are refused
            return new Command().killSwitch(randomOwner());
        }
        r -= 0.0004;
        if (r < 0.004) { // ... until released, after some 250 steps
            for (int owner : OWNERS) {
                if (reference.isKillSwitched(owner)) {
                    return new Command().releaseKillSwitch(owner);
                }
            }
        }
        r -= 0.004;
        if (r < 0.0003) { // the end of a trading day
            return new Command().expireDayOrders();
        }
        r -= 0.0003;
        if (r < 0.0005) { // a restart with another configuration
            queueSettings(randomOwner());
            return settings.removeFirst();
        }
        r -= 0.0005;
        if (r < 0.01) { // the server's timer, when a GTD order's expiry is due
            return new Command().timer();
        }
        r -= 0.01;
        if (r < 0.002) { // a session's order mass cancel: all, one symbol (now and then an unknown one), one side
            int symbol = random.nextInt(3) == 0 ? Command.ALL_SYMBOLS
                : random.nextInt(30) == 0 ? SYMBOLS.size() : random.nextInt(SYMBOLS.size());
            return new Command().massCancel(randomOwner(), "M" + random.nextInt(1000), symbol,
                random.nextBoolean() ? null : randomSide());
        }
        r -= 0.002;
        if (r < 0.008) { // a mass status request, of all the session's orders or one symbol's
            return new Command().massStatus(randomOwner(), "Q" + random.nextInt(1000),
                random.nextBoolean() ? Command.ALL_SYMBOLS : random.nextInt(SYMBOLS.size()));
        }
        r -= 0.008;
        if (r < 0.0004) { // a restart with another schedule
            queueSymbolSettings();
            return settings.removeFirst();
        }
        r -= 0.0004;
        if (r < 0.04) { // an auction-only order on the scheduled symbol
            int owner = randomOwner();
            Side side = randomSide();
            boolean opening = random.nextBoolean();
            boolean market = random.nextInt(4) == 0;
            return new Command().newOrder(owner, newOrderId(owner), 2, side, market ? OrderType.MARKET
                : OrderType.LIMIT, opening ? TimeInForce.AT_THE_OPENING : TimeInForce.AT_THE_CLOSE,
                market ? 0 : limitPrice(2, side, 0.5), randomQuantity(2));
        }
        r -= 0.04;
        if (r < 0.0005) {
            int symbol = random.nextInt(SYMBOLS.size());
            return new Command().setReferencePrice(symbol, random.nextInt(5) == 0 ? 0
                : midTicks[symbol] * SYMBOLS.get(symbol).tickSize());
        }
        return status();
    }

    // ----------------------------------------------------------------------------------------------- new orders

    private Command newOrder() {
        int owner = randomOwner();
        int symbol = random.nextInt(SYMBOLS.size());
        Side side = randomSide();
        long qty = randomQuantity(symbol);
        String id = newOrderId(owner);
        if (random.nextInt(100) < 25) {
            return attributedOrder(owner, id, symbol, side, qty);
        }
        double r = random.nextDouble();
        if (r < 0.36) {
            return new Command().newOrder(owner, id, symbol, side, OrderType.LIMIT, TimeInForce.DAY,
                limitPrice(symbol, side, 0.12), qty);
        }
        if (r < 0.56) {
            return new Command().newOrder(owner, id, symbol, side, OrderType.LIMIT, TimeInForce.GTC,
                limitPrice(symbol, side, 0.12), qty);
        }
        if (r < 0.71) {
            return new Command().newOrder(owner, id, symbol, side, OrderType.LIMIT, TimeInForce.IOC,
                limitPrice(symbol, side, 0.6), qty);
        }
        if (r < 0.82) {
            return new Command().newOrder(owner, id, symbol, side, OrderType.LIMIT, TimeInForce.FOK,
                limitPrice(symbol, side, 0.6), qty);
        }
        TimeInForce tif = switch (random.nextInt(6)) {
            case 0 -> TimeInForce.DAY;
            case 1 -> TimeInForce.GTC;
            case 2 -> TimeInForce.FOK;
            default -> TimeInForce.IOC;
        };
        // A market order's price is ignored: now and then send one anyway.
        long price = random.nextInt(10) == 0 ? limitPrice(symbol, side, 0.5) : 0;
        return new Command().newOrder(owner, id, symbol, side, OrderType.MARKET, tif, price, qty);
    }

    /**
     * An order with attributes: a stop or stop-limit order (its stop price a few ticks beyond the mid, now and then
     * already reached), an iceberg, a post-only order (often crossing), a GTD order (expiring within a few hundred steps),
     * an IOC with MinQty; about one in ten is an invalid combination.
     */
    private Command attributedOrder(int owner, String id, int symbol, Side side, long qty) {
        SymbolSpec spec = SYMBOLS.get(symbol);
        long tick = spec.tickSize();
        long lot = spec.lotSize();
        TimeInForce[] resting = {TimeInForce.DAY, TimeInForce.GTC, TimeInForce.GTD};
        TimeInForce tif = resting[random.nextInt(resting.length)];
        Command c;
        switch (random.nextInt(5)) {
            case 0 -> { // stop or stop-limit
                boolean stopLimit = random.nextBoolean();
                long distance = random.nextInt(6) == 0 ? -random.nextInt(3) : 1 + random.nextInt(6);
                long stopPrice = Math.max(1, (side == Side.BUY ? midTicks[symbol] + distance
                    : midTicks[symbol] - distance)) * tick;
                TimeInForce stopTif = random.nextInt(5) == 0 ? (random.nextBoolean() ? TimeInForce.IOC
                    : TimeInForce.FOK) : tif;
                long limit = stopLimit ? Math.max(tick, stopPrice + (side == Side.BUY ? 1 : -1) * tick
                    * random.nextInt(3)) : 0;
                c = new Command().newOrder(owner, id, symbol, side, stopLimit ? OrderType.STOP_LIMIT
                    : OrderType.STOP, stopTif, limit, qty).stopPrice(stopPrice);
            }
            case 1 -> { // iceberg
                long lots = qty / lot;
                c = new Command().newOrder(owner, id, symbol, side, OrderType.LIMIT, tif,
                    limitPrice(symbol, side, 0.25), qty).maxFloor(lot * (1 + random.nextInt((int) Math.max(1,
                    Math.min(lots, 4)))));
            }
            case 2 -> c = new Command().newOrder(owner, id, symbol, side, OrderType.LIMIT, tif,
                limitPrice(symbol, side, 0.4), qty).postOnly(true);
            case 3 -> c = new Command().newOrder(owner, id, symbol, side, OrderType.LIMIT, TimeInForce.GTD,
                limitPrice(symbol, side, 0.15), qty);
            default -> c = new Command().newOrder(owner, id, symbol, side, OrderType.LIMIT, TimeInForce.IOC,
                limitPrice(symbol, side, 0.7), qty).minQuantity(lot * (1 + random.nextInt((int) (qty / lot))));
        }
        if (c.timeInForce() == TimeInForce.GTD) {
            c.expireTimeNanos(timestamp + 1 + random.nextInt(600_000));
        }
        if (random.nextInt(10) == 0) {
            spoil(c, spec);
        }
        return c;
    }

    /** One invalid attribute or combination. */
    private void spoil(Command c, SymbolSpec spec) {
        switch (random.nextInt(8)) {
            case 0 -> c.stopPrice(c.orderType().isStop() ? (spec.tickSize() > 1 ? c.stopPrice() + 1 : -1)
                : spec.tickSize() * 100);
            case 1 -> c.maxFloor(random.nextBoolean() ? c.quantity() + spec.lotSize() : spec.lotSize())
                .timeInForce(random.nextBoolean() ? TimeInForce.IOC : c.timeInForce());
            case 2 -> c.minQuantity(random.nextBoolean() ? c.quantity() + spec.lotSize() : spec.lotSize())
                .timeInForce(random.nextBoolean() ? TimeInForce.DAY : TimeInForce.IOC);
            case 3 -> c.postOnly(true).timeInForce(random.nextBoolean() ? TimeInForce.IOC : c.timeInForce())
                .orderType(random.nextBoolean() ? OrderType.MARKET : c.orderType());
            case 4 -> c.timeInForce(TimeInForce.GTD).expireTimeNanos(random.nextBoolean() ? 0 : timestamp - 10);
            case 5 -> c.expireTimeNanos(timestamp + 1_000).timeInForce(TimeInForce.GTC);
            case 6 -> c.orderType(OrderType.STOP).stopPrice(0);
            default -> c.maxFloor(-spec.lotSize());
        }
    }

    private Command invalidNewOrder() {
        int owner = randomOwner();
        int symbol = random.nextInt(SYMBOLS.size());
        Side side = randomSide();
        SymbolSpec spec = SYMBOLS.get(symbol);
        long qty = randomQuantity(symbol);
        long price = limitPrice(symbol, side, 0.2);
        String id = newOrderId(owner);
        OrderType type = random.nextInt(4) == 0 ? OrderType.MARKET : OrderType.LIMIT;
        TimeInForce tif = TimeInForce.values()[random.nextInt(TimeInForce.values().length)];
        switch (random.nextInt(12)) {
            case 0 -> { // off tick (symbol 0 has tick 1: use another)
                symbol = 1 + random.nextInt(2);
                spec = SYMBOLS.get(symbol);
                price = limitPrice(symbol, side, 0.2) + 1 + random.nextInt((int) spec.tickSize() - 1);
                qty = randomQuantity(symbol);
            }
            case 1 -> { // not a lot multiple
                symbol = 1 + random.nextInt(2);
                spec = SYMBOLS.get(symbol);
                qty = randomQuantity(symbol) + 1 + random.nextInt((int) spec.lotSize() - 1);
                price = limitPrice(symbol, side, 0.2);
            }
            case 2 -> qty = 0;
            case 3 -> qty = -spec.lotSize() * (1 + random.nextInt(5));
            case 4 -> symbol = random.nextBoolean() ? -1 : SYMBOLS.size() + random.nextInt(3);
            case 5 -> { // the owner's id of a live order
                String liveId = liveIdOf(owner);
                if (liveId != null) {
                    id = liveId;
                }
            }
            case 6 -> {
                if (random.nextBoolean()) {
                    id = "";
                } else {
                    owner = random.nextBoolean() ? -1 - random.nextInt(3) : 65_536 + random.nextInt(3); // no such owner
                }
            }
            case 7 -> qty = spec.maxQuantity() + spec.lotSize() * (1 + random.nextInt(3));
            case 8 -> price = spec.maxPrice() + spec.tickSize() * (1 + random.nextInt(3));
            case 9 -> price = random.nextBoolean() ? 0 : -spec.tickSize() * (1 + random.nextInt(5));
            case 10 -> { // several faults at once: the first in the documented order wins
                qty = 0;
                price = -1;
                if (random.nextBoolean()) {
                    id = "";
                }
            }
            default -> { // exactly the maximum: valid, large
                qty = spec.maxQuantity();
                type = OrderType.LIMIT;
                tif = TimeInForce.IOC;
            }
        }
        return new Command().newOrder(owner, id, symbol, side, type, tif, type == OrderType.MARKET
            && random.nextBoolean() ? 0 : price, qty);
    }

    // ---------------------------------------------------------------------------------------------- cancels

    private Command cancel() {
        RefOrder target = randomLive();
        int r = random.nextInt(100);
        if (target == null || r < 5) {
            int owner = randomOwner();
            return new Command().cancel(owner, newOrderId(owner), neverUsedId(), random.nextInt(SYMBOLS.size()),
                randomSide());
        }
        String requestId = requestIdFor(target.owner);
        if (r < 10) {
            String finished = finishedIdOf(target.owner);
            if (finished != null) {
                return new Command().cancel(target.owner, requestId, finished, random.nextInt(SYMBOLS.size()),
                    randomSide());
            }
        }
        if (r < 15) {
            return mismatched(target, (symbol, side) ->
                new Command().cancel(target.owner, requestId, target.clientOrderId, symbol, side));
        }
        if (r < 19) { // another session names the order: it must not find it (unless it has its own)
            int other = otherOwner(target.owner);
            return new Command().cancel(other, newRequestId(other), target.clientOrderId, target.symbolId,
                target.side);
        }
        return new Command().cancel(target.owner, requestId, target.clientOrderId, target.symbolId, target.side);
    }

    // --------------------------------------------------------------------------------------------- replaces

    private Command replace() {
        RefOrder t = randomLive();
        if (t == null) {
            int owner = randomOwner();
            int symbol = random.nextInt(SYMBOLS.size());
            Side side = randomSide();
            return new Command().replace(owner, newOrderId(owner), neverUsedId(), symbol, side,
                limitPrice(symbol, side, 0.1), randomQuantity(symbol));
        }
        SymbolSpec spec = SYMBOLS.get(t.symbolId);
        long lot = spec.lotSize();
        String newId = newOrderId(t.owner);
        long price = t.price;
        long qty = t.quantity;
        int r = random.nextInt(100);
        if (r < 18) { // smaller (or equal) quantity, same price: keeps its place
            long leavesLots = t.leaves / lot;
            qty = t.cum + lot * (1 + random.nextInt((int) Math.max(1, leavesLots)));
        } else if (r < 30) { // larger quantity, same price
            qty = t.quantity + lot * (1 + random.nextInt(10));
        } else if (r < 46) { // new passive-ish price
            price = limitPrice(t.symbolId, t.side, 0.05);
            if (random.nextBoolean()) {
                qty = t.cum + lot * (1 + random.nextInt(15));
            }
        } else if (r < 58) { // crossing price: trades at once as an aggressor
            price = crossingPrice(t);
            if (random.nextBoolean()) {
                qty = t.quantity + lot * random.nextInt(10);
            }
        } else if (r < 62) { // same price, same quantity
            qty = t.quantity;
        } else if (r < 67) { // quantity at or below what was filled (or zero if nothing was)
            qty = t.cum == 0 ? 0 : lot * (1 + random.nextInt((int) (t.cum / lot)));
        } else if (r < 71) { // unknown or finished order
            String orig = random.nextBoolean() ? neverUsedId() : finishedIdOf(t.owner);
            return new Command().replace(t.owner, newId, orig == null ? neverUsedId() : orig, t.symbolId, t.side,
                price, qty);
        } else if (r < 75) { // new id already live for the owner (this very order, or another)
            String dup = random.nextBoolean() ? t.clientOrderId : liveIdOf(t.owner);
            newId = dup == null ? t.clientOrderId : dup;
        } else if (r < 77) {
            newId = "";
        } else if (r < 82) {
            final long p = price;
            final long q = qty;
            final String id = newId;
            return mismatched(t, (symbol, side) ->
                new Command().replace(t.owner, id, t.clientOrderId, symbol, side, p, q));
        } else if (r < 86) { // invalid price or quantity
            switch (random.nextInt(5)) {
                case 0 -> price = spec.tickSize() > 1 ? price + 1 : -price;
                case 1 -> qty = lot > 1 ? qty + 1 : -qty;
                case 2 -> price = 0;
                case 3 -> qty = spec.maxQuantity() + lot;
                default -> price = spec.maxPrice() + spec.tickSize();
            }
        } else if (r < 90) { // another session names the order
            int other = otherOwner(t.owner);
            return new Command().replace(other, newOrderId(other), t.clientOrderId, t.symbolId, t.side, price, qty);
        } else { // price and quantity both change
            price = limitPrice(t.symbolId, t.side, 0.25);
            qty = t.cum + lot * (1 + random.nextInt(20));
        }
        return new Command().replace(t.owner, newId, t.clientOrderId, t.symbolId, t.side, price, qty);
    }

    /** A price for the order that reaches into the opposite side (or just somewhere aggressive if it is empty). */
    private long crossingPrice(RefOrder t) {
        SymbolSpec spec = SYMBOLS.get(t.symbolId);
        List<RefOrder> opposite = reference.restingOrders(t.symbolId, t.side.opposite());
        if (opposite.isEmpty()) {
            return limitPrice(t.symbolId, t.side, 1.0);
        }
        // Go through 0..3 levels' worth of ticks beyond the opposite best.
        long best = opposite.get(0).price;
        long beyond = spec.tickSize() * random.nextInt(4);
        long price = t.side == Side.BUY ? best + beyond : best - beyond;
        return Math.max(spec.tickSize(), price);
    }

    // ------------------------------------------------------------------------------------------- status

    private Command status() {
        RefOrder t = randomLive();
        int r = random.nextInt(100);
        if (t == null || r < 12) {
            int owner = randomOwner();
            return new Command().orderStatus(owner, neverUsedId(), random.nextInt(SYMBOLS.size()), randomSide());
        }
        if (r < 22) {
            String finished = finishedIdOf(t.owner);
            return new Command().orderStatus(t.owner, finished == null ? neverUsedId() : finished, t.symbolId,
                t.side);
        }
        if (r < 32) {
            return mismatched(t, (symbol, side) -> new Command().orderStatus(t.owner, t.clientOrderId, symbol, side));
        }
        if (r < 36) {
            return new Command().orderStatus(t.owner, "", t.symbolId, t.side);
        }
        return new Command().orderStatus(t.owner, t.clientOrderId, t.symbolId, t.side);
    }

    // ------------------------------------------------------------------------------------------- helpers

    private interface Target {
        Command with(int symbol, Side side);
    }

    /** The request names the order but with a wrong side, a wrong symbol, or both. */
    private Command mismatched(RefOrder t, Target target) {
        int symbol = t.symbolId;
        Side side = t.side;
        int what = random.nextInt(3);
        if (what != 1) {
            side = side.opposite();
        }
        if (what != 0) {
            symbol = (symbol + 1 + random.nextInt(SYMBOLS.size() - 1)) % SYMBOLS.size();
        }
        return target.with(symbol, side);
    }

    private void walkMids() {
        for (int s = 0; s < midTicks.length; s++) {
            if (random.nextInt(25) == 0) {
                long maxTicks = SYMBOLS.get(s).maxPrice() / SYMBOLS.get(s).tickSize();
                midTicks[s] = Math.max(100, Math.min(maxTicks - 100, midTicks[s] + (random.nextBoolean() ? 1 : -1)));
            }
        }
    }

    /**
     * A limit price in ticks around the mid: with probability {@code aggressive} on the other side of the mid (it
     * may cross), otherwise behind it, at a distance that makes for many price levels.
     */
    private long limitPrice(int symbol, Side side, double aggressive) {
        long tick = SYMBOLS.get(symbol).tickSize();
        long distance = random.nextDouble() < aggressive
            ? -random.nextInt(5)
            : 1 + (long) Math.abs(random.nextGaussian() * 8);
        long ticks = side == Side.BUY ? midTicks[symbol] - distance : midTicks[symbol] + distance;
        return Math.max(1, ticks) * tick;
    }

    private long randomQuantity(int symbol) {
        long lots = random.nextInt(8) == 0 ? 10 + random.nextInt(90) : 1 + random.nextInt(12);
        return lots * SYMBOLS.get(symbol).lotSize();
    }

    private int randomOwner() {
        return OWNERS[random.nextInt(OWNERS.length)];
    }

    private int otherOwner(int owner) {
        return OWNERS[(slot(owner) + 1 + random.nextInt(OWNERS.length - 1)) % OWNERS.length];
    }

    private static int slot(int owner) {
        for (int i = 0; i < OWNERS.length; i++) {
            if (OWNERS[i] == owner) {
                return i;
            }
        }
        throw new IllegalArgumentException("not an owner: " + owner);
    }

    private Side randomSide() {
        return random.nextBoolean() ? Side.BUY : Side.SELL;
    }

    private RefOrder randomLive() {
        List<RefOrder> live = reference.liveOrders();
        return live.isEmpty() ? null : live.get(random.nextInt(live.size()));
    }

    private String liveIdOf(int owner) {
        List<RefOrder> mine = new ArrayList<>();
        for (RefOrder o : reference.liveOrders()) {
            if (o.owner == owner) {
                mine.add(o);
            }
        }
        return mine.isEmpty() ? null : mine.get(random.nextInt(mine.size())).clientOrderId;
    }

    /** An id the owner used before for an order that is no longer live (filled, canceled, replaced away). */
    private String finishedIdOf(int owner) {
        List<String> used = usedIds.get(slot(owner));
        for (int attempt = 0; attempt < 5 && !used.isEmpty(); attempt++) {
            String id = used.get(random.nextInt(used.size()));
            if (!reference.isLive(owner, id)) {
                return id;
            }
        }
        return null;
    }

    /**
     * The next id for an order of this owner. Every owner counts from 1 with the same prefix, so the same text
     * names different orders of different owners. Now and then an old, finished id is reused (that is allowed).
     */
    private String newOrderId(int owner) {
        if (random.nextInt(50) == 0) {
            String finished = finishedIdOf(owner);
            if (finished != null) {
                return finished;
            }
        }
        String id = "C" + (++nextIdNumber[slot(owner)]);
        usedIds.get(slot(owner)).add(id);
        return id;
    }

    /** Mostly a fresh id; now and then empty or a live order's id: a cancel request's own id is not checked. */
    private String requestIdFor(int owner) {
        if (random.nextInt(40) == 0) {
            String liveId = liveIdOf(owner);
            return random.nextBoolean() || liveId == null ? "" : liveId;
        }
        return newRequestId(owner);
    }

    private String newRequestId(int owner) {
        return "R" + (++nextIdNumber[slot(owner)]);
    }

    private String neverUsedId() {
        return "Z" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
    }
}
