package io.fixmatch.server;

import sun.misc.Signal;

import java.util.concurrent.CountDownLatch;

/**
 * SIGTERM and Ctrl-C (SIGINT), from the first moment of {@code main}: each only asks for a stop, which the main
 * thread carries out at the next step of the start (or at once once it serves) through the server's own clean
 * stop, so the process exits 0 whatever it was doing and leaves the data folder as a clean stop does. (The JVM's
 * default would run the shutdown hooks and exit 143 or 130, whatever the start had half done.)
 */
final class StopSignals {
    private final CountDownLatch requested = new CountDownLatch(1);
    private volatile String signal;

    private StopSignals() {
    }

    /** Takes SIGTERM and SIGINT over from the JVM. */
    static StopSignals install() {
        StopSignals signals = new StopSignals();
        Signal.handle(new Signal("TERM"), signals::onSignal);
        Signal.handle(new Signal("INT"), signals::onSignal);
        return signals;
    }

    private void onSignal(Signal received) {
        if (signal == null) {
            signal = "SIG" + received.getName();
        }
        requested.countDown();
    }

    /** Whether a stop was asked for. */
    boolean requested() {
        return requested.getCount() == 0;
    }

    /** The signal that asked for the stop ({@code SIGTERM}, {@code SIGINT}), or null. */
    String signal() {
        return signal;
    }

    /** Waits until a stop is asked for. */
    void await() throws InterruptedException {
        requested.await();
    }

    /** Waits until a stop is asked for, or the time runs out; whether one was. */
    boolean await(long timeout, java.util.concurrent.TimeUnit unit) throws InterruptedException {
        return requested.await(timeout, unit);
    }
}
