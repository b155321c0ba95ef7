package io.fixmatch.cluster.client;

import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.engine.matching.EngineView;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongArrayList;

import java.util.HashMap;
import java.util.Map;

/**
 * Reads the cluster's answer to a hello (Egress): the WELCOME and the SEED messages of the books that follow it. While
 * the gateway joins (its first hello) the welcome is read whole into a {@link Welcome} and the books collected; a
 * welcome after a reconnect only refreshes the engine's view and its seed messages are passed over (the gateway's
 * books followed the cluster all along). One thread: the link's.
 */
final class WelcomeReader {
    /** The engine's view as the cluster sends it: the welcome carries it whole. */
    private final EngineView view;
    /**
     * The books and calls as the welcome's SEED messages give them: symbol, kind (a side, or a call's indicative
     * uncross), price, quantity per entry.
     */
    private final LongArrayList seedEntries = new LongArrayList();
    private boolean joining = true;
    private Welcome welcome;
    /** Seed messages still to come: above 0 to collect, below 0 to pass over. */
    private int seedsToReceive;

    WelcomeReader(EngineView view) {
        this.view = view;
    }

    /** A hello was said: its answer is awaited afresh. */
    void helloSaid() {
        seedsToReceive = 0;
    }

    /**
     * A WELCOME: the engine's view applied; while joining, read whole (see {@link #welcome()}) and its seed messages
     * awaited; after, they are passed over. Returns whether it was read as the joining welcome.
     */
    boolean read(DirectBuffer buffer, int offset, int length, int leaderMemberId) {
        int seedMessages = Egress.welcomeSeedMessages(buffer, offset);
        int viewAt = Egress.welcomeViewAt(buffer, offset);
        view.apply(buffer, viewAt + Integer.BYTES);
        if (!joining) {
            seedsToReceive = -seedMessages;
            return false;
        }
        seedEntries.clear();
        welcome = decode(buffer, offset, length, leaderMemberId);
        seedsToReceive = seedMessages;
        return true;
    }

    private Welcome decode(DirectBuffer buffer, int offset, int length, int leaderMemberId) {
        int controls = Egress.welcomeControlCount(buffer, offset);
        Map<Integer, Long> positions = new HashMap<>();
        Map<Integer, long[]> sessionControls = new HashMap<>();
        for (int i = 0; i < Egress.welcomeOwnerCount(buffer, offset); i++) {
            int at = Egress.welcomeOwnerAt(buffer, offset, i);
            int owner = buffer.getInt(at, Egress.ORDER);
            positions.put(owner, buffer.getLong(at + Integer.BYTES, Egress.ORDER));
            long[] values = new long[controls];
            for (int c = 0; c < controls; c++) {
                values[c] = buffer.getLong(at + Integer.BYTES + Long.BYTES + c * Long.BYTES, Egress.ORDER);
            }
            sessionControls.put(owner, values);
        }
        long[] referencePrices = new long[Egress.welcomeSymbolCount(buffer, offset)];
        int pricesAt = Egress.welcomeReferencePricesAt(buffer, offset);
        for (int i = 0; i < referencePrices.length; i++) {
            referencePrices[i] = buffer.getLong(pricesAt + i * Long.BYTES, Egress.ORDER);
        }
        SymbolSettings symbolSettings = SymbolSettings.decode(buffer, offset, length, referencePrices.length);
        // After the settings, from this release on: the engine's market data sequence number (the binary feed's), then
        // each symbol's last trade price.
        int sequenceAt = symbolSettings.end();
        long marketDataSequence = sequenceAt + Long.BYTES <= offset + length
            ? buffer.getLong(sequenceAt, Egress.ORDER) : Welcome.UNKNOWN_SEQUENCE;
        long[] lastTradePrices = new long[referencePrices.length];
        int tradesAt = sequenceAt + Long.BYTES;
        if (tradesAt + lastTradePrices.length * Long.BYTES <= offset + length) {
            for (int i = 0; i < lastTradePrices.length; i++) {
                lastTradePrices[i] = buffer.getLong(tradesAt + i * Long.BYTES, Egress.ORDER);
            }
        }
        return new Welcome(Egress.welcomeLastApplied(buffer, offset), Egress.welcomeLastEgress(buffer, offset),
            Egress.welcomeOldestHeld(buffer, offset), Map.copyOf(positions), Map.copyOf(sessionControls),
            referencePrices, symbolSettings, leaderMemberId, seedEntries, marketDataSequence, lastTradePrices);
    }

    /** A SEED message: its entries collected while joining, else passed over. */
    void onSeed(DirectBuffer buffer, int offset, int length) {
        if (seedsToReceive < 0) {
            seedsToReceive++;
            return;
        }
        for (int i = 0; i < Egress.seedEntries(length); i++) {
            seedEntries.addLong(Egress.seedSymbol(buffer, offset, i));
            seedEntries.addLong(Egress.seedKind(buffer, offset, i));
            seedEntries.addLong(Egress.seedPrice(buffer, offset, i));
            seedEntries.addLong(Egress.seedQuantity(buffer, offset, i));
        }
        seedsToReceive--;
    }

    /** Whether the gateway has its whole welcome: the WELCOME and every SEED message after it. */
    boolean complete() {
        return welcome != null && seedsToReceive <= 0;
    }

    /** The gateway has joined: later welcomes (after a reconnect) are not read whole. */
    void joined() {
        joining = false;
    }

    /** The joining welcome; null before it came. */
    Welcome welcome() {
        return welcome;
    }
}
