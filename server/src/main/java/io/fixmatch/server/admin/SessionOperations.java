package io.fixmatch.server.admin;

import io.fixmatch.engine.api.Command;
import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.gateway.Gateways;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionTransport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

/**
 * The operator's view of and actions on sessions. A session belongs to one gateway thread, so everything here runs
 * as a task on that thread (the admin thread only waits for the task's result): reading its sequence numbers,
 * logging it out, handing its cancel-all to the engine (the engine's cancel-all-for-owner command, journaled and
 * kept by the gateway until the inbound ring takes it).
 */
final class SessionOperations {
    private final List<FixSession> sessions;
    private final Gateways gateways;
    private final Duration timeout;
    private final IntFunction<Integer> holderOf;

    /** @param holderOf in a cluster, the id of the gateway holding the session of an owner (null: none) */
    SessionOperations(List<FixSession> sessions, Gateways gateways, Duration timeout,
                      IntFunction<Integer> holderOf) {
        this.holderOf = holderOf;
        this.sessions = List.copyOf(sessions);
        this.gateways = gateways;
        this.timeout = timeout;
    }

    /** The session with this client CompID, or null. */
    FixSession byCompId(String compId) {
        for (FixSession session : sessions) {
            if (session.config().clientCompId().equals(compId)) {
                return session;
            }
        }
        return null;
    }

    /** Every configured session, in configuration order. */
    List<SessionInfo> list() throws InterruptedException, ExecutionException, TimeoutException {
        List<CompletableFuture<SessionInfo>> infos = new ArrayList<>();
        for (FixSession session : sessions) {
            Gateway gateway = gateways.ofSession(session);
            List<String> dropCopies = dropCopiesOf(session);
            Integer holder = holderOf.apply(session.ownerId());
            infos.add(gateway.call(() -> info(session, gateway, dropCopies, holder)));
        }
        List<SessionInfo> list = new ArrayList<>();
        for (CompletableFuture<SessionInfo> info : infos) {
            list.add(await(info));
        }
        return list;
    }

    /** The CompIDs of the drop-copy sessions covering {@code session} (fixed configuration, read on any thread). */
    private List<String> dropCopiesOf(FixSession session) {
        String compId = session.config().clientCompId();
        return sessions.stream().filter(other -> other.config().dropCopyFor().contains(compId))
            .map(other -> other.config().clientCompId()).toList();
    }

    /** Sends the session a Logout; false if it was not logged on. */
    boolean logout(FixSession session, String text) throws InterruptedException, ExecutionException, TimeoutException {
        Gateway gateway = gateways.ofSession(session);
        return await(gateway.call(() -> gateway.logout(session, text)));
    }

    /** Hands the engine a cancel of every live order of the session; its reports go to the session as usual. */
    void cancelAll(FixSession session) throws InterruptedException, ExecutionException, TimeoutException {
        Gateway gateway = gateways.ofSession(session);
        Command command = new Command().cancelAllForOwner(session.ownerId())
            .timestampNanos(System.currentTimeMillis() * 1_000_000L);
        await(gateway.submit(() -> gateway.submitCommand(command)));
    }

    /** On the session's gateway thread. */
    private static SessionInfo info(FixSession session, Gateway gateway, List<String> dropCopies, Integer holder) {
        SessionTransport transport = session.transport();
        return new SessionInfo(session.config().clientCompId(), session.ownerId(), gateway.name(),
            session.isLoggedOn(), transport == null ? null : transport.remoteAddress(), session.nextSenderSeqNum(),
            session.nextTargetSeqNum(), session.counters().messagesReceived(), session.counters().messagesSent(),
            session.config().cancelOnDisconnect(), session.config().latencyTrace(), session.config().dropCopyFor(),
            dropCopies, holder);
    }

    private <T> T await(CompletableFuture<T> task) throws InterruptedException, ExecutionException, TimeoutException {
        return task.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }
}
