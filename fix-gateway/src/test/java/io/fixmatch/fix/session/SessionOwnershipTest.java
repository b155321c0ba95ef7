package io.fixmatch.fix.session;

import io.fixmatch.fix.app.VenueDictionary;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.MessageBody;
import io.fixmatch.fix.codec.MsgTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * One thread owns a session and its store: a call from any other thread fails at once (the session's own
 * assertions, on in every test run; Chronicle's single-thread checks on the store) instead of racing.
 */
class SessionOwnershipTest {
    private static final ApplicationHandler NOTHING = new ApplicationHandler() {
        @Override
        public void onApplicationMessage(FixSession session, FixMessage message, long nowMs) {
        }

        @Override
        public void onDisconnected(FixSession session) {
        }
    };
    private static final MessageBody REPORT = w -> w.field(58, "a report");

    @TempDir
    Path dir;

    @Test
    void onlyTheOwningThreadMayTouchASession() throws Exception {
        ExecutorService owner = Executors.newSingleThreadExecutor();
        FixSession session = new FixSession(new SessionConfig("CLIENT1", null, null, false), 1, "FIXMATCH",
            new SessionStore(dir), SessionTimings.defaults(), NOTHING, 4096, VenueDictionary.get());
        try {
            assertThrows(AssertionError.class, () -> session.sendApplication(MsgTypes.EXECUTION_REPORT, REPORT, 0),
                "no thread owns it yet");
            owner.submit(session::claimOwnership).get(10, TimeUnit.SECONDS);

            on(owner, () -> session.sendApplication(MsgTypes.EXECUTION_REPORT, REPORT, 0)); // the owner: fine
            assertThrows(AssertionError.class, () -> session.sendApplication(MsgTypes.EXECUTION_REPORT, REPORT, 0));
            assertThrows(AssertionError.class, () -> session.onTimer(0));
            assertThrows(AssertionError.class, () -> session.logout("bye", 0));
            assertThrows(AssertionError.class, session::onConnectionClosed);
            on(owner, () -> session.onTimer(0));
        } finally {
            on(owner, session::close);
            owner.shutdown();
        }
    }

    @Test
    void theStoreRefusesAThreadThatDoesNotOwnIt() throws Exception {
        ExecutorService owner = Executors.newSingleThreadExecutor();
        SessionStore store = new SessionStore(dir);
        try {
            on(owner, () -> {
                store.claimOwnership();
                store.storeSent(1, new byte[] {1, 2, 3}, 0, 3);
            });
            // Chronicle's own check, switched on again: a second thread appending is refused.
            RuntimeException refused = assertThrows(RuntimeException.class,
                () -> store.storeSent(2, new byte[] {4}, 0, 1));
            assertInstanceOf(IllegalStateException.class, refused, refused.toString());
        } finally {
            on(owner, store::close);
            owner.shutdown();
        }
    }

    private static void on(ExecutorService thread, Runnable task) throws Exception {
        try {
            CompletableFuture.runAsync(task, thread).get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
