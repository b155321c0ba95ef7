package io.fixmatch.it;

import quickfix.Session;
import quickfix.SessionID;
import quickfix.mina.SessionConnector;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * QuickFIX/J's session timer, ticked more often for a test's sessions. An unmodified QuickFIX/J session does
 * everything it does on its own at the ticks of one timer thread, once a second (2.3.1: {@code SessionConnector
 * .startSessionTimer}, not configurable): the Logon after it connects, the Logout {@code stop()} asks for, heartbeats,
 * TestRequests, timeouts. So each logon and each stop waited up to a second for nothing, over a hundred times a build.
 * Here {@link Session#next()}, the very call the timer makes, is also run every few milliseconds on that same thread
 * (QuickFIX/J's own executor, read by reflection), so a session's calls stay on one thread, in turn; everything the
 * session decides at a tick it decides by the clock (HeartBtInt, LogonTimeout, LogoutTimeout), so ticking more often
 * only makes it act sooner after the moment it is due, never earlier.
 */
public final class QuickFixJTimer {
    private static final ScheduledExecutorService TIMER = timer();

    private QuickFixJTimer() {
    }

    /** Runs the session's {@code next()} every {@code period} on QuickFIX/J's timer thread until canceled. */
    public static Future<?> tickEvery(Duration period, SessionID sessionId, Consumer<String> errors) {
        return TIMER.scheduleWithFixedDelay(() -> {
            Session session = Session.lookupSession(sessionId);
            if (session == null) {
                return;
            }
            try {
                session.next();
            } catch (Throwable e) { // as QuickFIX/J's own timer task: reported, and the ticks go on
                errors.accept("session timer tick: " + e);
            }
        }, period.toNanos(), period.toNanos(), TimeUnit.NANOSECONDS);
    }

    private static ScheduledExecutorService timer() {
        try {
            Field field = SessionConnector.class.getDeclaredField("SCHEDULED_EXECUTOR");
            field.setAccessible(true);
            return (ScheduledExecutorService) field.get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("QuickFIX/J's session timer (SessionConnector.SCHEDULED_EXECUTOR) not"
                + " found: another QuickFIX/J version?", e);
        }
    }
}
