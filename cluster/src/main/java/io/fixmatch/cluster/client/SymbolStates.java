package io.fixmatch.cluster.client;

import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.matching.TradingSettings;
import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * The symbols' states a welcome carries (Egress): each symbol's schedule and volatility settings and time zone as the
 * engine holds them, and the indicative uncross of each symbol in a call. A welcome from a node of an earlier release
 * carries none: then the settings are {@link TradingSettings#UNKNOWN} and no call is known.
 */
public final class SymbolStates {
    private static final SymbolControl[] CONTROLS = SymbolControl.values();

    /** Per symbol, per control (ordinal): its value; null when not carried. */
    private final long[][] controls;
    private final String[] timeZones;
    /** Per symbol: the indicative uncross's price and volume (volume 0: none). */
    private final long[] indicativePrices;
    private final long[] indicativeVolumes;

    private SymbolStates(long[][] controls, String[] timeZones, long[] indicativePrices, long[] indicativeVolumes) {
        this.controls = controls;
        this.timeZones = timeZones;
        this.indicativePrices = indicativePrices;
        this.indicativeVolumes = indicativeVolumes;
    }

    /**
     * Reads the states of the welcome at {@code offset}, {@code length} bytes long, for {@code symbols} symbols. An
     * entry of a symbol or control this gateway does not know is passed over.
     */
    static SymbolStates decode(DirectBuffer buffer, int offset, int length, int symbols) {
        long[] prices = new long[symbols];
        long[] volumes = new long[symbols];
        int at = Egress.welcomeSymbolStatesAt(buffer, offset);
        if (at >= offset + length) {
            return new SymbolStates(null, null, prices, volumes);
        }
        long[][] controls = new long[symbols][CONTROLS.length];
        for (long[] values : controls) {
            for (SymbolControl control : CONTROLS) {
                values[control.ordinal()] = control.none();
            }
        }
        int count = buffer.getInt(at, Egress.ORDER);
        at += Integer.BYTES;
        for (int i = 0; i < count; i++, at += Egress.SYMBOL_SETTING_LENGTH) {
            int symbol = buffer.getInt(at, Egress.ORDER);
            SymbolControl control = SymbolControl.ofCode(buffer.getInt(at + Integer.BYTES, Egress.ORDER));
            if (symbol >= 0 && symbol < symbols && control != null) {
                controls[symbol][control.ordinal()] = buffer.getLong(at + 2 * Integer.BYTES, Egress.ORDER);
            }
        }
        String[] zones = new String[symbols];
        Arrays.fill(zones, Egress.DEFAULT_TIME_ZONE);
        count = buffer.getInt(at, Egress.ORDER);
        at += Integer.BYTES;
        for (int i = 0; i < count; i++) {
            int symbol = buffer.getInt(at, Egress.ORDER);
            String zone = buffer.getStringAscii(at + Integer.BYTES, Egress.ORDER);
            at += 2 * Integer.BYTES + zone.length();
            if (symbol >= 0 && symbol < symbols) {
                zones[symbol] = zone;
            }
        }
        count = buffer.getInt(at, Egress.ORDER);
        at += Integer.BYTES;
        for (int i = 0; i < count; i++, at += Egress.INDICATIVE_LENGTH) {
            int symbol = buffer.getInt(at, Egress.ORDER);
            if (symbol >= 0 && symbol < symbols) {
                prices[symbol] = buffer.getLong(at + Integer.BYTES, Egress.ORDER);
                volumes[symbol] = buffer.getLong(at + Integer.BYTES + Long.BYTES, Egress.ORDER);
            }
        }
        return new SymbolStates(controls, zones, prices, volumes);
    }

    /** As {@link TradingSettings#symbolControl}: {@link TradingSettings#UNKNOWN} when the welcome carried none. */
    long control(int symbolId, SymbolControl control) {
        return controls == null || symbolId < 0 || symbolId >= controls.length ? TradingSettings.UNKNOWN
            : controls[symbolId][control.ordinal()];
    }

    /** As {@link TradingSettings#symbolTimeZone}: null when the welcome carried none. */
    String timeZone(int symbolId) {
        return timeZones == null || symbolId < 0 || symbolId >= timeZones.length ? null : timeZones[symbolId];
    }

    void forEachIndicative(Welcome.IndicativeSink sink) {
        for (int symbol = 0; symbol < indicativeVolumes.length; symbol++) {
            if (indicativeVolumes[symbol] != 0) {
                sink.indicative(symbol, indicativePrices[symbol], indicativeVolumes[symbol]);
            }
        }
    }
}
