package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.SessionControl;

/**
 * Self-trade prevention: each session's firm (sessions of one non-zero firm are one party) and the mode its
 * incoming orders apply when they would trade with a resting order of the same party (docs/MATCHING.md). Two array
 * reads per resting order met, and only for sessions with a mode. The matching thread's state, set by journaled
 * commands.
 */
final class SelfTradeRule {
    private final int[] firm = new int[OwnerOrders.MAX_OWNERS];
    private final SelfTradePrevention[] mode = new SelfTradePrevention[OwnerOrders.MAX_OWNERS];

    SelfTradeRule() {
        java.util.Arrays.fill(mode, SelfTradePrevention.NONE);
    }

    /** The mode the owner's incoming orders apply. */
    SelfTradePrevention modeOf(int owner) {
        return mode[owner];
    }

    /** Whether two owners are one party: the same session, or sessions of the same (non-zero) firm. */
    boolean sameParty(int incomingOwner, int restingOwner) {
        if (incomingOwner == restingOwner) {
            return true;
        }
        int incomingFirm = firm[incomingOwner];
        return incomingFirm != 0 && incomingFirm == firm[restingOwner];
    }

    long control(int owner, SessionControl control) {
        return switch (control) {
            case FIRM -> firm[owner];
            case SELF_TRADE_PREVENTION -> mode[owner].code();
            default -> 0;
        };
    }

    /** Sets the firm or the mode; returns false for a control that is not self-trade prevention's. */
    boolean setControl(int owner, SessionControl control, long value) {
        switch (control) {
            case FIRM -> firm[owner] = (int) Math.max(0, Math.min(Integer.MAX_VALUE, value));
            case SELF_TRADE_PREVENTION -> mode[owner] = SelfTradePrevention.ofCode(value);
            default -> {
                return false;
            }
        }
        return true;
    }
}
