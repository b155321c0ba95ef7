package io.fixmatch.fix.session;

import java.time.Clock;

/**
 * A session's schedule ({@link SessionSchedule}) as time passes: the trading session in force, read against the
 * schedule's own clock (so tests need not wait for wall time), and the one the current connection logged on in.
 * {@link FixSession} asks it, at a Logon and on every timer tick, whether the connection's trading session is over
 * (it logs out) and whether a disconnected session's numbers are due for the reset of a new trading session
 * ({@code resetOnSessionStart}). Two comparisons a tick unless a window just ended. Owned by the session's thread.
 */
final class ScheduleTracker {
    private final SessionSchedule schedule;
    private final SessionSchedule.Window window;
    private Clock clock = Clock.systemUTC();
    /** The start of the scheduled trading session the current connection logged on in (0: no schedule). */
    private long logonSessionStart;

    ScheduleTracker(SessionSchedule schedule) {
        this.schedule = schedule;
        this.window = new SessionSchedule.Window(schedule);
    }

    /** The clock the schedule is read against (default: the system's). */
    void clock(Clock value) {
        clock = value;
    }

    /** No schedule: one trading session forever, nothing to follow. */
    boolean isAlways() {
        return schedule.isAlways();
    }

    /** The start (epoch ms) of the trading session in force now, -1 outside the schedule; 0 if {@link #isAlways}. */
    long sessionStartNow() {
        return schedule.isAlways() ? 0 : window.sessionStartAt(clock.millis());
    }

    /** A connection logged on in the trading session that started at {@code sessionStart}. */
    void loggedOnIn(long sessionStart) {
        logonSessionStart = sessionStart;
    }

    /** Whether the trading session in force ({@link #sessionStartNow}) is not the one the connection logged on in. */
    boolean endedSinceLogon(long sessionStart) {
        return sessionStart != logonSessionStart;
    }

    /**
     * Whether numbers last reset for the trading session that started at {@code storeSessionStart} are to be reset
     * for the one in force, {@code sessionStart} ({@code resetOnSessionStart}; never outside the schedule).
     */
    boolean resetDue(long sessionStart, long storeSessionStart) {
        return sessionStart >= 0 && schedule.resetOnSessionStart() && storeSessionStart != sessionStart;
    }

    /** For log lines: the schedule as configured. */
    @Override
    public String toString() {
        return schedule.toString();
    }
}
