package io.fixmatch.server.rules;

import io.fixmatch.engine.api.SymbolControl;

import java.util.Arrays;

/**
 * One symbol's auction schedule and volatility settings from the configuration (its auction group's), as the engine's
 * {@link SymbolControl} values (the time zone apart): what {@link SessionControlSync} brings the engine to.
 */
public final class SymbolSchedule {
    /** No auctions, no volatility band: every control at its "not set" value, UTC. */
    public static final SymbolSchedule NONE = new SymbolSchedule(unset(), "UTC");

    private final long[] values;
    private final String timeZone;

    SymbolSchedule(long[] values, String timeZone) {
        this.values = values.clone();
        this.timeZone = timeZone;
    }

    /** Every control at its {@link SymbolControl#none()}, by ordinal. */
    static long[] unset() {
        long[] values = new long[SymbolControl.values().length];
        for (SymbolControl control : SymbolControl.values()) {
            values[control.ordinal()] = control.none();
        }
        return values;
    }

    public long control(SymbolControl control) {
        return values[control.ordinal()];
    }

    public String timeZone() {
        return timeZone;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SymbolSchedule that && Arrays.equals(values, that.values)
            && timeZone.equals(that.timeZone);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values) * 31 + timeZone.hashCode();
    }

    @Override
    public String toString() {
        return "SymbolSchedule" + Arrays.toString(values) + " " + timeZone;
    }
}
