package io.fixmatch.engine.api;

/**
 * What the engine does when an incoming order would trade with a resting order of the same session or firm
 * (docs/MATCHING.md, "Self-trade prevention"). The incoming order's session's setting decides.
 */
public enum SelfTradePrevention {
    /** They trade. */
    NONE(0, "none"),
    /** The resting order is canceled; the incoming order goes on matching. */
    CANCEL_RESTING(1, "cancel-resting"),
    /** The incoming order's unfilled quantity is canceled; the resting order stays. */
    CANCEL_INCOMING(2, "cancel-incoming"),
    /** Both: the resting order, then the incoming order's unfilled quantity. */
    CANCEL_BOTH(3, "cancel-both");

    private static final SelfTradePrevention[] BY_CODE = {NONE, CANCEL_RESTING, CANCEL_INCOMING, CANCEL_BOTH};

    private final int code;
    private final String configName;

    SelfTradePrevention(int code, String configName) {
        this.code = code;
        this.configName = configName;
    }

    /** The value of {@link SessionControl#SELF_TRADE_PREVENTION}: fixed, journaled. */
    public int code() {
        return code;
    }

    /** As written in the configuration: none, cancel-resting, cancel-incoming, cancel-both. */
    public String configName() {
        return configName;
    }

    /** The mode with this code; unknown codes are {@link #NONE}. */
    public static SelfTradePrevention ofCode(long code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[(int) code] : NONE;
    }

    /** @throws IllegalArgumentException for a name that is none of the four */
    public static SelfTradePrevention byConfigName(String name) {
        for (SelfTradePrevention mode : values()) {
            if (mode.configName.equals(name)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("must be none, cancel-resting, cancel-incoming or cancel-both, was "
            + name);
    }
}
