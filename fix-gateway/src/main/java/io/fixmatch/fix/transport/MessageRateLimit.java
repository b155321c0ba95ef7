package io.fixmatch.fix.transport;

/**
 * A logged-on connection's inbound message rate limit: a token bucket of one second's allowance, refilled
 * continuously at {@code perSecond}. A message that finds no token is over the limit ({@link #REJECT}); when the
 * messages over the limit within one wall-clock second reach the limit itself (the client sends at least twice its
 * allowance), the answer is {@link #DISCONNECT}. A Logon counts as a message, and for one second after such a
 * disconnect the session's Logons are refused ({@link #onLogon}). Counts in thousandths of a message, so that low
 * limits refill smoothly on a millisecond clock. Kept per session across its connections; its gateway thread only;
 * allocation-free.
 */
final class MessageRateLimit {
    static final int ACCEPT = 0;
    static final int REJECT = 1;
    static final int DISCONNECT = 2;

    private static final long ONE = 1000;
    /** How long a session disconnected for flooding must wait before it may log on again. */
    static final long COOL_DOWN_MS = 1000;

    private final long perSecond;
    private final long capacity;
    private long tokens;
    private long lastRefillMs;
    private long windowSecond = -1;
    private long rejectedInWindow;
    private long rejectedTotal;
    private long disconnectedAtMs = Long.MIN_VALUE;

    /** @param perSecond messages per second; 0 means no limit */
    MessageRateLimit(long perSecond, long nowMs) {
        this.perSecond = perSecond;
        this.capacity = perSecond * ONE;
        this.tokens = capacity;
        this.lastRefillMs = nowMs;
    }

    /** One message arrived at {@code nowMs}: {@link #ACCEPT}, {@link #REJECT} or {@link #DISCONNECT}. */
    int onMessage(long nowMs) {
        if (perSecond == 0) {
            return ACCEPT;
        }
        if (nowMs > lastRefillMs) {
            tokens = Math.min(capacity, tokens + (nowMs - lastRefillMs) * perSecond);
            lastRefillMs = nowMs;
        }
        if (tokens >= ONE) {
            tokens -= ONE;
            return ACCEPT;
        }
        long second = nowMs / 1000;
        if (second != windowSecond) {
            windowSecond = second;
            rejectedInWindow = 0;
        }
        rejectedTotal++;
        if (++rejectedInWindow >= perSecond) {
            disconnectedAtMs = nowMs;
            return DISCONNECT;
        }
        return REJECT;
    }

    /** A Logon: {@link #ACCEPT}, or {@link #REJECT} within the cool-down after a disconnect or over the rate. */
    int onLogon(long nowMs) {
        if (disconnectedAtMs != Long.MIN_VALUE && nowMs - disconnectedAtMs < COOL_DOWN_MS) {
            return REJECT;
        }
        return onMessage(nowMs) == ACCEPT ? ACCEPT : REJECT;
    }

    /** Whether the message just rejected is the first over the limit in its second (log that one). */
    boolean firstRejectInWindow() {
        return rejectedInWindow == 1;
    }

    long rejectedTotal() {
        return rejectedTotal;
    }

    long perSecond() {
        return perSecond;
    }
}
