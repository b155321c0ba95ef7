package io.fixmatch.cluster.service;

import io.aeron.cluster.service.ClientSession;
import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.matching.MatchingEngine;
import org.agrona.ExpandableDirectByteBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The leader's answers to a gateway's HELLO (Egress): a WELCOME telling where the cluster stands (the gateway's last
 * applied command and egress batch, its owners' last inbound positions and settings, the symbols' reference prices,
 * the engine's view with each symbol's trading phase, the symbols' schedule and volatility settings), the books as
 * they rest (SEED messages, for its market data), then every batch it has not acknowledged (marked history); or a
 * REFUSED saying why not. Reads the engine, changes nothing: only the leader writes these, and only for a hello, never
 * for a command.
 */
final class GatewayWelcome {
    private static final int SEED_MESSAGE_BYTES = 64 * 1024;
    private static final int REPLY_BYTES = 256 * 1024;
    private static final int SEED_ENTRIES_PER_MESSAGE = (SEED_MESSAGE_BYTES - Egress.SEED_HEADER_LENGTH)
        / Egress.SEED_ENTRY_LENGTH;
    /** The symbol settings a welcome carries: every schedule and volatility setting (the time zone goes as text). */
    private static final SymbolControl[] SCHEDULE_CONTROLS = Arrays.stream(SymbolControl.values())
        .filter(control -> control != SymbolControl.TIME_ZONE).toArray(SymbolControl[]::new);

    private final EgressBatches egress;
    /** The protocol version the WELCOME says. */
    private final int version;
    /**
     * Welcomes and seed messages: grows for a welcome beyond it (its owners' settings and the symbols' prices and
     * settings grow with the venue's sessions and symbols).
     */
    private final ExpandableDirectByteBuffer reply = new ExpandableDirectByteBuffer(REPLY_BYTES);
    private MatchingRuntime runtime;

    GatewayWelcome(EgressBatches egress, int version) {
        this.egress = egress;
        this.version = version;
    }

    /** At the service's start: the matching step whose engine and view the welcome reads. */
    void start(MatchingRuntime runtime) {
        this.runtime = runtime;
    }

    /** Tells the gateway of {@code slot}, which said hello on {@code session}, where the cluster stands. */
    void welcome(GatewaySlot slot, ClientSession session) {
        MatchingEngine engine = runtime.engine();
        SessionControl[] controls = SessionControl.values();
        int symbols = engine.symbolCount();
        Egress.encodeWelcomeHeader(reply, 0, version, slot.gatewayId, slot.lastApplied, slot.egressSequence,
            slot.window.oldestSequence(), seedMessageCount(engine), slot.owners.length, controls.length, symbols);
        int at = Egress.WELCOME_HEADER_LENGTH;
        for (int owner : slot.owners) {
            reply.putInt(at, owner, Egress.ORDER);
            reply.putLong(at + Integer.BYTES, engine.lastInboundPosition(owner), Egress.ORDER);
            at += Integer.BYTES + Long.BYTES;
            for (SessionControl control : controls) {
                reply.putLong(at, engine.sessionControl(owner, control), Egress.ORDER);
                at += Long.BYTES;
            }
        }
        for (int symbol = 0; symbol < symbols; symbol++) {
            reply.putLong(at, engine.referencePrice(symbol), Egress.ORDER);
            at += Long.BYTES;
        }
        int viewLength = runtime.view().encode(reply, at + Integer.BYTES, false, false, true); // phases: a joiner's
        reply.putInt(at, viewLength, Egress.ORDER);
        at = putSymbolSettings(engine, at + Integer.BYTES + viewLength);
        reply.putLong(at, engine.marketDataSequence(), Egress.ORDER); // the books' number (the binary feed's)
        at += Long.BYTES;
        for (int symbol = 0; symbol < symbols; symbol++) {
            reply.putLong(at, engine.lastTradePrice(symbol), Egress.ORDER); // for the binary feed's snapshots
            at += Long.BYTES;
        }
        egress.offer(session, reply, at);
        sendSeed(session, engine);
        egress.resend(slot, session, 0, Egress.HISTORY);
    }

    /** Tells the gateway saying hello on {@code session} why the cluster will not serve it. */
    void refuse(ClientSession session, String why) {
        int length = Egress.encodeRefused(reply, 0, why);
        egress.offer(session, reply, length);
    }

    /** One symbol's settings as the welcome carries them: shared by the symbols of a group. */
    private record SettingsProfile(List<Long> values, String timeZone) {
    }

    /**
     * The welcome's symbol settings at {@code at} (Egress): each symbol's schedule and volatility settings and time
     * zone as the engine holds them, so the gateway sends only where its configuration differs, resets included. The
     * symbols of a group share them: each distinct profile goes once (numbered in symbol order), then each symbol's
     * profile number, 4 bytes a symbol. Returns where the welcome ends.
     */
    private int putSymbolSettings(MatchingEngine engine, int at) {
        reply.putInt(at, SCHEDULE_CONTROLS.length, Egress.ORDER);
        at += Integer.BYTES;
        for (SymbolControl control : SCHEDULE_CONTROLS) {
            reply.putInt(at, control.code(), Egress.ORDER);
            at += Integer.BYTES;
        }
        int countAt = at;
        at += Integer.BYTES;
        Map<SettingsProfile, Integer> profiles = new HashMap<>(); // looked up only: numbered in symbol order
        int[] profileOf = new int[engine.symbolCount()];
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            List<Long> values = new ArrayList<>(SCHEDULE_CONTROLS.length);
            for (SymbolControl control : SCHEDULE_CONTROLS) {
                values.add(engine.symbolControl(symbol, control));
            }
            SettingsProfile settings = new SettingsProfile(values, engine.symbolTimeZone(symbol));
            Integer profile = profiles.get(settings);
            if (profile == null) {
                profile = profiles.size();
                profiles.put(settings, profile);
                for (long value : values) {
                    reply.putLong(at, value, Egress.ORDER);
                    at += Long.BYTES;
                }
                at += reply.putStringAscii(at, settings.timeZone(), Egress.ORDER);
            }
            profileOf[symbol] = profile;
        }
        reply.putInt(countAt, profiles.size(), Egress.ORDER);
        for (int profile : profileOf) {
            reply.putInt(at, profile, Egress.ORDER);
            at += Integer.BYTES;
        }
        return at;
    }

    /** One entry of the books' seed: a resting order ({@code kind}: its side's ordinal) or a call's indicative. */
    private interface SeedEntrySink {
        void entry(int symbolId, int kind, long price, long quantity);
    }

    /** The seed's entries: per symbol its resting orders, buys then sells, then its call's indicative if any. */
    private static void forEachSeedEntry(MatchingEngine engine, SeedEntrySink sink) {
        for (int symbol = 0; symbol < engine.symbolCount(); symbol++) {
            int symbolId = symbol;
            for (Side side : Side.values()) {
                engine.forEachRestingOrder(symbol, side, order -> sink.entry(symbolId, order.side().ordinal(),
                    order.price(), order.displayedQuantity()));
            }
            long[] indicative = engine.indicative(symbol);
            if (indicative[1] != 0) {
                sink.entry(symbol, Egress.SEED_INDICATIVE, indicative[0], indicative[1]);
            }
        }
    }

    private static int seedMessageCount(MatchingEngine engine) {
        long[] entries = {0};
        forEachSeedEntry(engine, (symbol, kind, price, quantity) -> entries[0]++);
        return (int) ((entries[0] + SEED_ENTRIES_PER_MESSAGE - 1) / SEED_ENTRIES_PER_MESSAGE);
    }

    private void sendSeed(ClientSession session, MatchingEngine engine) {
        int[] entries = {0};
        int[] length = {0};
        Egress.encodeSeedHeader(reply, 0);
        forEachSeedEntry(engine, (symbol, kind, price, quantity) -> {
            length[0] = Egress.putSeedEntry(reply, 0, entries[0]++, symbol, kind, price, quantity);
            if (entries[0] == SEED_ENTRIES_PER_MESSAGE) {
                egress.offer(session, reply, length[0]);
                entries[0] = 0;
            }
        });
        if (entries[0] > 0) {
            egress.offer(session, reply, length[0]);
        }
    }
}
