package io.fixmatch.server.rules;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.matching.TradingSettings;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Brings the engine's settings to the configuration's, through the journal: after recovery, for every session
 * setting and reference price the recovered engine holds differently from the configuration, a command that sets
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
        return commands;
    }
}
