package io.fixmatch.loadgen.flow;

/** The kinds of request the flow sends; each has its own round-trip probe. */
public enum RequestKind {
    /** A limit order that rests: measured to its ExecutionReport New (probe new_ack). */
    NEW_ORDER("new_ack"),
    /** A cancel of a resting order: measured to its ExecutionReport Canceled (probe cancel). */
    CANCEL("cancel"),
    /** An IOC order crossing our own resting orders: measured to its first Trade report (probe fill). */
    AGGRESSIVE("fill"),
    /** A cancel/replace of a resting order that stays passive: measured to its Replaced report (probe replace). */
    REPLACE("replace");

    private static final RequestKind[] BY_ORDINAL = values();

    private final String probe;

    RequestKind(String probe) {
        this.probe = probe;
    }

    public String probe() {
        return probe;
    }

    public static RequestKind fromOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }
}
