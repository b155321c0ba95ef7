package io.fixmatch.fix.session;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.MessageBody;
import io.fixmatch.fix.codec.MsgTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * At-least-once inputs (issue #14): a request counts as received in the session store only once the engine has
 * answered it (so journaled it); a restart asks again for what the journal lacks and only that; the reports of
 * engine events carry their origin so a restart knows which ones the store holds. Real session, real store files.
 */
class InboundRecoveryTest {
    private static final MessageBody REPORT = w -> w.field(37, "1").field(17, "1").field(150, '0').field(39, '0');

    @TempDir
    Path directory;

    /** The handler queues every order with the engine, as the order entry does; the positions are kept. */
    private static List<Long> queueOrders(SessionHarness harness) {
        List<Long> positions = new ArrayList<>();
        harness.onApplicationMessage = message -> {
            long position = harness.session.journalPositions().inboundPosition(message.longValue(34));
            harness.session.journalPositions().requestQueued(position);
            positions.add(position);
        };
        return positions;
    }

    @Test
    void aRequestHandedToTheEngineCountsAsReceivedOnlyOnceItsReportIsStored() {
        try (SessionHarness harness = new SessionHarness(directory)) {
            List<Long> queued = queueOrders(harness);
            harness.logon(1, false);
            assertEquals(2, harness.store.nextTargetSeqNum());

            harness.receive(MsgTypes.NEW_ORDER_SINGLE, 2, SessionHarness.order("A"));
            harness.receive(MsgTypes.HEARTBEAT, 3, MessageBody.EMPTY);
            harness.receive(MsgTypes.NEW_ORDER_SINGLE, 4, SessionHarness.order("B"));
            assertEquals(5, harness.session.nextTargetSeqNum(), "the session itself moves on");
            assertEquals(2, harness.store.nextTargetSeqNum(), "the store stays at the oldest request in flight");

            harness.session.sendEventReport(MsgTypes.EXECUTION_REPORT, REPORT, 100, 0, queued.get(0), harness.nowMs);
            assertEquals(4, harness.store.nextTargetSeqNum(), "past the answered request and the heartbeat");
            harness.session.sendEventReport(MsgTypes.EXECUTION_REPORT, REPORT, 101, 0, queued.get(1), harness.nowMs);
            assertEquals(5, harness.store.nextTargetSeqNum());
        }
    }

    @Test
    void aRestartAsksAgainForTheRequestsTheJournalLacksAndOnlyThose() {
        List<Long> queued;
        try (SessionHarness harness = new SessionHarness(directory)) {
            queued = queueOrders(harness);
            harness.logon(1, false);
            for (long seq = 2; seq <= 5; seq++) {
                harness.receive(MsgTypes.NEW_ORDER_SINGLE, seq, SessionHarness.order("O" + seq));
            }
            assertEquals(2, harness.store.nextTargetSeqNum());
        } // the process dies: 2..5 were handed to the engine, none answered
        try (SessionHarness restarted = new SessionHarness(directory)) {
            restarted.session.journalPositions().recoverInbound(queued.get(1)); // the journal holds 2 and 3
            assertEquals(4, restarted.store.nextTargetSeqNum());
            restarted.logon(6, false);
            FixMessage resendRequest = restarted.sent(MsgTypes.RESEND_REQUEST).get(0);
            assertEquals(4, resendRequest.longValue(7), "asks from the first request the journal lacks");
        }
    }

    @Test
    void anEmptyJournalOrAnotherEpochLeavesTheStoreAsItIs() {
        long beforeReset;
        try (SessionHarness harness = new SessionHarness(directory)) {
            queueOrders(harness);
            harness.logon(1, false);
            harness.receive(MsgTypes.NEW_ORDER_SINGLE, 2, SessionHarness.order("A"));
            beforeReset = harness.session.journalPositions().inboundPosition(2);
            harness.session.journalPositions().recoverInbound(0);
            assertEquals(2, harness.store.nextTargetSeqNum());
        }
        try (SessionHarness harness = new SessionHarness(directory)) {
            harness.logon(1, true); // sequence numbers reset: a new epoch
            harness.receive(MsgTypes.HEARTBEAT, 2, MessageBody.EMPTY);
            assertEquals(3, harness.store.nextTargetSeqNum());
        }
        try (SessionHarness harness = new SessionHarness(directory)) {
            // MsgSeqNum 2 of the old epoch says nothing now
            harness.session.journalPositions().recoverInbound(beforeReset);
            assertEquals(3, harness.store.nextTargetSeqNum());
            assertTrue(harness.session.journalPositions().inboundPosition(2) > beforeReset,
                "positions grow across resets");
        }
    }

    @Test
    void theStoreKnowsWhichEngineEventsItHoldsAcrossARestartAndAReset() {
        try (SessionHarness harness = new SessionHarness(directory)) {
            harness.logon(1, false);
            assertFalse(harness.session.journalPositions().holdsEvent(100, 0));
            harness.session.sendEventReport(MsgTypes.EXECUTION_REPORT, REPORT, 100, 0, 0, harness.nowMs);
            harness.session.sendEventReport(MsgTypes.EXECUTION_REPORT, REPORT, 100, 2, 0, harness.nowMs);
            harness.session.sendApplication(MsgTypes.EXECUTION_REPORT, REPORT, harness.nowMs); // no origin
            assertTrue(harness.session.journalPositions().holdsEvent(100, 2));
            assertFalse(harness.session.journalPositions().holdsEvent(100, 3));
        }
        try (SessionHarness restarted = new SessionHarness(directory)) {
            assertTrue(restarted.session.journalPositions().holdsEvent(99, 5));
            assertTrue(restarted.session.journalPositions().holdsEvent(100, 2));
            assertFalse(restarted.session.journalPositions().holdsEvent(100, 3));
            assertFalse(restarted.session.journalPositions().holdsEvent(101, 0));
            restarted.logon(1, true);
            assertTrue(restarted.session.journalPositions().holdsEvent(100, 2),
                "a sequence reset does not forget the engine's events");
        }
    }
}
