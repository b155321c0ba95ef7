package io.fixmatch.cluster.client;

import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.matching.TradingSettings;
import org.agrona.DirectBuffer;

/**
 * The symbols' schedule and volatility settings and time zones as a welcome says the engine holds them (Egress). A
 * welcome from a node of an earlier release carries none: then each is {@link TradingSettings#UNKNOWN} (time zone
 * null), and the gateway sets every configured one.
 */
public final class SymbolSettings {
    private static final SymbolControl[] CONTROLS = SymbolControl.values();

    /** Per profile, per control (ordinal): its value; null when not carried. */
    private final long[][] profileValues;
    private final String[] profileZones;
    /** Per symbol: its profile. */
    private final int[] profileOf;
    /** Where the settings end in the welcome (what a later release appends follows: Egress). */
    private final int end;

    private SymbolSettings(long[][] profileValues, String[] profileZones, int[] profileOf, int end) {
        this.profileValues = profileValues;
        this.profileZones = profileZones;
        this.end = end;
        this.profileOf = profileOf;
    }

    /**
     * Reads the settings of the welcome at {@code offset}, {@code length} bytes long, for its {@code symbols} symbols.
     * A control this gateway does not know is passed over; one the welcome does not list is at its none() value.
     */
    static SymbolSettings decode(DirectBuffer buffer, int offset, int length, int symbols) {
        int at = Egress.welcomeSymbolSettingsAt(buffer, offset);
        if (at >= offset + length) {
            return new SymbolSettings(null, null, null, offset + length);
        }
        SymbolControl[] carried = new SymbolControl[buffer.getInt(at, Egress.ORDER)];
        at += Integer.BYTES;
        for (int i = 0; i < carried.length; i++, at += Integer.BYTES) {
            carried[i] = SymbolControl.ofCode(buffer.getInt(at, Egress.ORDER));
        }
        int profiles = buffer.getInt(at, Egress.ORDER);
        at += Integer.BYTES;
        long[][] values = new long[profiles][CONTROLS.length];
        String[] zones = new String[profiles];
        for (int profile = 0; profile < profiles; profile++) {
            for (SymbolControl control : CONTROLS) {
                values[profile][control.ordinal()] = control.none();
            }
            for (SymbolControl control : carried) {
                if (control != null) {
                    values[profile][control.ordinal()] = buffer.getLong(at, Egress.ORDER);
                }
                at += Long.BYTES;
            }
            zones[profile] = buffer.getStringAscii(at, Egress.ORDER);
            at += Integer.BYTES + zones[profile].length();
        }
        int[] profileOf = new int[symbols];
        for (int symbol = 0; symbol < symbols; symbol++, at += Integer.BYTES) {
            profileOf[symbol] = buffer.getInt(at, Egress.ORDER);
        }
        return new SymbolSettings(values, zones, profileOf, at);
    }

    /** Where the settings end in the welcome's buffer. */
    int end() {
        return end;
    }

    /** As {@link TradingSettings#symbolControl}. */
    long control(int symbolId, SymbolControl control) {
        return profileOf == null || symbolId < 0 || symbolId >= profileOf.length ? TradingSettings.UNKNOWN
            : profileValues[profileOf[symbolId]][control.ordinal()];
    }

    /** As {@link TradingSettings#symbolTimeZone}. */
    String timeZone(int symbolId) {
        return profileOf == null || symbolId < 0 || symbolId >= profileOf.length ? null
            : profileZones[profileOf[symbolId]];
    }
}
