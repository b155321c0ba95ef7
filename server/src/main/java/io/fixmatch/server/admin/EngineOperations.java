package io.fixmatch.server.admin;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.matching.BookQueryAnswer;
import io.fixmatch.engine.matching.EngineView;
import io.fixmatch.fix.gateway.Gateway;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The operator's commands to the engine: halt and resume a symbol, engage and release a session's kill switch, end
 * the trading day (day orders expire), ask for a copy of the books. Each goes through
 * the inbound ring like any client's command, so the matching thread is the only one that touches the books, and a
 * halt or resume is journaled before it takes effect (a replay halts where the live server halted). The command is
 * handed to a gateway thread (the one that runs the matching step in the one-thread layout), whose pending commands
 * keep it until the ring takes it; the admin thread then watches what the matching thread publishes
 * ({@link EngineView}) until the effect shows or the timeout passes. The matching thread never waits for the admin.
 */
final class EngineOperations {
    private static final long POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private final Gateway gateway;
    private final EngineView view;
    private final Duration timeout;
    private final AtomicLong requests = new AtomicLong();

    EngineOperations(Gateway gateway, EngineView view, Duration timeout) {
        this.gateway = gateway;
        this.view = view;
        this.timeout = timeout;
    }

    /**
     * Halts or resumes trading in the symbol; returns once the engine has done it.
     *
     * @throws TimeoutException if the engine has not applied it within the timeout (stalled, or its journal failing)
     */
    void setHalted(int symbolId, boolean halted) throws InterruptedException, TimeoutException, ExecutionException {
        Command command = halted ? new Command().haltSymbol(symbolId) : new Command().resumeSymbol(symbolId);
        submit(command);
        await(() -> view.isHalted(symbolId) == halted ? Boolean.TRUE : null);
    }

    /**
     * Engages or releases a session's kill switch; returns once the engine has done it (engaging: the session's
     * orders are canceled, reported to it, before the engine publishes the switch).
     *
     * @throws TimeoutException if the engine has not applied it within the timeout
     */
    void setKillSwitch(int owner, boolean engaged) throws InterruptedException, TimeoutException,
        ExecutionException {
        submit(engaged ? new Command().killSwitch(owner) : new Command().releaseKillSwitch(owner));
        await(() -> view.isKillSwitchEngaged(owner) == engaged ? Boolean.TRUE : null);
    }

    boolean isKillSwitchEngaged(int owner) {
        return view.isKillSwitchEngaged(owner);
    }

    /** Ends the trading day now: every resting DAY order expires. Returns once the engine has done it. */
    void expireDayOrders() throws InterruptedException, TimeoutException, ExecutionException {
        long before = view.dayEnds();
        submit(new Command().expireDayOrders());
        await(() -> view.dayEnds() > before ? Boolean.TRUE : null);
    }

    /**
     * A copy of the books as the matching thread saw them between two commands: the levels of {@code symbolId} (none
     * for -1) and every book's summary.
     */
    BookQueryAnswer queryBook(int symbolId) throws InterruptedException, TimeoutException, ExecutionException {
        long requestId = requests.incrementAndGet();
        submit(new Command().bookQuery(symbolId, requestId));
        return await(() -> view.answer(requestId));
    }

    boolean isHalted(int symbolId) {
        return view.isHalted(symbolId);
    }

    private void submit(Command command) throws InterruptedException, TimeoutException, ExecutionException {
        command.timestampNanos(System.currentTimeMillis() * 1_000_000L);
        gateway.submit(() -> gateway.submitCommand(command)).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Polls until {@code result} gives a value; the admin thread only (short parks, never a lock). */
    private <T> T await(Supplier<T> result) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T value = result.get();
            if (value != null) {
                return value;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("the engine did not answer within " + timeout.toMillis() + " ms");
            }
            LockSupport.parkNanos(POLL_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }
}
