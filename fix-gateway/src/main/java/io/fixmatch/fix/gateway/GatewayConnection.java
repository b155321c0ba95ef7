package io.fixmatch.fix.gateway;

/** A TCP connection as its gateway thread sees it: timers and closing. Called on that thread only. */
public interface GatewayConnection {
    /** Once per millisecond: logon timeout, slow-consumer check. */
    void onTimer(long nowMs);

    /** Closes the connection (what was queued is written first). */
    void close();

    /** Reads again after {@link Gateway#pauseReading} (the inbound ring drained). */
    void resumeReading();
}
