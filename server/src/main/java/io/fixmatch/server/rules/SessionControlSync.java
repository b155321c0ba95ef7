package io.fixmatch.server.rules;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.matching.TradingSettings;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Brings the engine's settings to the configuration's, through the journal: after recovery, for every session
 * setting, reference price and symbol schedule setting the recovered engine holds differently from the configuration, a command that sets
 * it. The commands are journaled and processed before any client's, so a replay decides every order with the
 * settings in force when it was first decided, even if the configuration changed since. The kill switch is state,
 * not configuration: a restart leaves it as it was.
 */
public final class SessionControlSync {
    private SessionControlSync() {
    }

    /**
     * The commands that make the engine (recovered, not running; or as a cluster's welcome describes it) hold
     * {@code rules} for the owners {@code served} says; owner k + 1 is session k. Stamped {@code timestampNanos}.
     */
    public static List<Command> differences(TradingRules rules, TradingSettings engine, long timestampNanos,
                                            IntPredicate served) {
        List<Command> commands = new ArrayList<>();
        for (int i = 0; i < rules.sessions().size(); i++) {
            int owner = i + 1;
            if (!served.test(owner)) {
                continue;
            }
            SessionRules session = rules.ofSession(i);
            for (SessionControl control : SessionControl.values()) {
                if (control == SessionControl.KILL_SWITCH) {
                    continue;
                }
                long wanted = session.control(control);
                if (engine.sessionControl(owner, control) != wanted) {
                    commands.add(new Command().setSessionControl(owner, control, wanted)
                        .timestampNanos(timestampNanos));
                }
            }
        }
        for (int symbol = 0; symbol < rules.referencePrices().size(); symbol++) {
            long wanted = rules.referencePrices().get(symbol);
            if (engine.referencePrice(symbol) != wanted) {
                commands.add(new Command().setReferencePrice(symbol, wanted).timestampNanos(timestampNanos));
            }
        }
        for (int symbol = 0; symbol < rules.schedules().size(); symbol++) {
            schedule(commands, symbol, rules.schedules().get(symbol), engine, timestampNanos);
        }
        return commands;
    }

    /**
     * The symbol's schedule and volatility settings: the time zone first, then the random end, the four times (the
     * schedule is in force once all four are set, in order) and the band; one the configuration no longer has goes
     * back to none. Where the engine's values are not known (a welcome from a node of an earlier release), every
     * configured one is set (setting an unchanged value changes nothing).
     */
    private static void schedule(List<Command> commands, int symbol, SymbolSchedule wanted, TradingSettings engine,
                                 long timestampNanos) {
        String zone = engine.symbolTimeZone(symbol);
        if (zone == null ? !wanted.timeZone().equals("UTC") : !zone.equals(wanted.timeZone())) {
            commands.add(new Command().setSymbolTimeZone(symbol, wanted.timeZone()).timestampNanos(timestampNanos));
        }
        for (SymbolControl control : SCHEDULE_ORDER) {
            long value = wanted.control(control);
            long held = engine.symbolControl(symbol, control);
            if (held == TradingSettings.UNKNOWN ? value != control.none() : held != value) {
                commands.add(new Command().setSymbolControl(symbol, control, value).timestampNanos(timestampNanos));
            }
        }
    }

    private static final SymbolControl[] SCHEDULE_ORDER = {SymbolControl.RANDOM_END_MILLIS,
        SymbolControl.OPENING_CALL, SymbolControl.OPENING_UNCROSS, SymbolControl.CLOSING_CALL,
        SymbolControl.CLOSING_UNCROSS, SymbolControl.VOLATILITY_BAND_BASIS_POINTS, SymbolControl.INTERRUPTION_MILLIS};
}
