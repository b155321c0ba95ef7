package io.fixmatch.cluster.service;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who holds a session and how its numbers continue, decided in log order: the rules a takeover relies on, each driven
 * through the ledger as the service drives it (claims, releases, log time passing), with gateways' liveness given as
 * the service's slots would report it.
 */
class SessionLedgerTest {
    private static final long TIMEOUT_NS = 2_000_000_000L;
    private static final int OWNER = 1;
    private static final int GATEWAY_A = 1;
    private static final int GATEWAY_B = 2;

    /** Log time each slot was last heard from; a slot absent from it is closed. */
    private final long[] lastHeardNs = {0, 0, 0, 0};
    private final boolean[] open = {false, true, true, true};
    private final SessionLedger.Liveness liveness = new SessionLedger.Liveness() {
        @Override
        public boolean alive(int slot, long nowNs) {
            return open[slot] && nowNs < silentFromNs(slot);
        }

        @Override
        public long silentFromNs(int slot) {
            return open[slot] ? lastHeardNs[slot] + TIMEOUT_NS : 0;
        }
    };
    private final SessionLedger ledger = new SessionLedger(3, TIMEOUT_NS, liveness);
    private final List<String> decisions = new ArrayList<>();
    private final SessionLedger.Decisions recorder = new SessionLedger.Decisions() {
        @Override
        public void granted(int owner, int slot, int previousSlot, int epoch, long logonAnswerSeqNum, long nextIn) {
            decisions.add("granted " + owner + " to " + slot + " from " + previousSlot + " epoch " + epoch
                + " answer " + logonAnswerSeqNum + " nextIn " + nextIn);
        }

        @Override
        public void refused(int owner, int slot, String reason, long logoutSeqNum) {
            decisions.add("refused " + owner + " to " + slot + ": " + reason + " logout " + logoutSeqNum);
        }
    };

    @Test
    void aSessionNobodyHoldsIsGrantedAndItsNumbersGoOn() {
        claim(GATEWAY_A, 1, 0);
        assertEquals(List.of("granted 1 to 1 from 0 epoch 0 answer 1 nextIn 2"), decisions);
        assertEquals(GATEWAY_A, ledger.holder(OWNER));
        assertEquals(2, ledger.numberOut(OWNER));
        assertEquals(3, ledger.numberOut(OWNER));
        ledger.inboundSeen(OWNER, 0, 7);
        assertEquals(8, ledger.nextIn(OWNER));
        ledger.inboundSeen(OWNER, 0, 5);
        assertEquals(8, ledger.nextIn(OWNER), "never backwards");
    }

    @Test
    void aLogonElsewhereWaitsForTheHoldersReleaseThenContinuesTheNumbers() {
        claim(GATEWAY_A, 1, 0);
        ledger.numberOut(OWNER);
        ledger.inboundSeen(OWNER, 0, 4);
        decisions.clear();
        lastHeardNs[GATEWAY_A] = 50;
        claim(GATEWAY_B, 5, 100);
        assertEquals(List.of(), decisions, "waits while the holder is alive");
        assertEquals(50 + TIMEOUT_NS, ledger.nextDeadlineNs(), "when A would count as silent");
        ledger.release(OWNER, GATEWAY_A, recorder);
        assertEquals(List.of("granted 1 to 2 from 0 epoch 0 answer 3 nextIn 6"), decisions, "released: nobody to revoke");
        assertEquals(0, ledger.takeovers(), "released, not taken over");
        assertEquals(0, ledger.nextDeadlineNs());
    }

    @Test
    void aHolderSilentForTheTimeoutLosesTheSessionToTheWaitingClaim() {
        claim(GATEWAY_A, 1, 0);
        decisions.clear();
        lastHeardNs[GATEWAY_A] = 500;
        claim(GATEWAY_B, 2, 1_000);
        assertEquals(500 + TIMEOUT_NS, ledger.nextDeadlineNs(), "when A counts as silent, before B's deadline");
        ledger.expire(500 + TIMEOUT_NS - 1, recorder);
        assertEquals(List.of(), decisions);
        ledger.expire(500 + TIMEOUT_NS, recorder);
        assertEquals(List.of("granted 1 to 2 from 1 epoch 0 answer 2 nextIn 3"), decisions);
        assertEquals(1, ledger.takeovers());
    }

    @Test
    void aClaimOnASessionOfAGatewayAlreadyGoneIsGrantedAtOnce() {
        claim(GATEWAY_A, 1, 0);
        decisions.clear();
        open[GATEWAY_A] = false;
        claim(GATEWAY_B, 2, 10);
        assertEquals(List.of("granted 1 to 2 from 1 epoch 0 answer 2 nextIn 3"), decisions);
    }

    @Test
    void aClaimWhileTheHolderStaysAliveIsRefusedAtItsDeadline() {
        claim(GATEWAY_A, 1, 0);
        decisions.clear();
        claim(GATEWAY_B, 2, 1_000);
        lastHeardNs[GATEWAY_A] = TIMEOUT_NS;
        ledger.expire(1_000 + TIMEOUT_NS, recorder);
        assertEquals(List.of("refused 1 to 2: the session is logged on at another gateway logout 0"), decisions);
        assertEquals(GATEWAY_A, ledger.holder(OWNER));
        assertEquals(0, ledger.nextDeadlineNs());
    }

    @Test
    void aClaimWaitingThroughAnElectionGoesToItWhenTheHolderSaysNothingAfter() {
        claim(GATEWAY_A, 1, 0);
        decisions.clear();
        lastHeardNs[GATEWAY_A] = 900;
        claim(GATEWAY_B, 2, 1_000);
        long termStart = 1_500_000_000L;
        lastHeardNs[GATEWAY_A] = termStart; // the service's grace: the election's silence is no gateway's
        ledger.termBegan(termStart);
        ledger.expire(1_000 + TIMEOUT_NS, recorder);
        assertEquals(List.of(), decisions, "the claim's first deadline passed while A counts as alive by the grace");
        assertEquals(termStart + TIMEOUT_NS, ledger.nextDeadlineNs());
        ledger.expire(termStart + TIMEOUT_NS, recorder);
        assertEquals(List.of("granted 1 to 2 from 1 epoch 0 answer 2 nextIn 3"), decisions);
    }

    @Test
    void aClaimWaitingThroughAnElectionIsRefusedIfTheHolderSpeaksAfter() {
        claim(GATEWAY_A, 1, 0);
        decisions.clear();
        claim(GATEWAY_B, 2, 1_000);
        long termStart = 1_500_000_000L;
        lastHeardNs[GATEWAY_A] = termStart;
        ledger.termBegan(termStart);
        lastHeardNs[GATEWAY_A] = termStart + 10; // A speaks in the new term: alive
        ledger.expire(termStart + TIMEOUT_NS, recorder);
        assertEquals(List.of("refused 1 to 2: the session is logged on at another gateway logout 0"), decisions);
    }

    @Test
    void aLaterClaimReplacesAWaitingOne() {
        claim(GATEWAY_A, 1, 0);
        decisions.clear();
        claim(GATEWAY_B, 2, 10);
        claim(3, 2, 20);
        assertEquals(List.of("refused 1 to 2: a later Logon at another gateway took its place logout 0"), decisions);
    }

    @Test
    void aLogonBelowTheNumberTheClusterKnowsIsRefusedWithANumberedLogout() {
        claim(GATEWAY_A, 1, 0);
        ledger.inboundSeen(OWNER, 0, 9);
        ledger.release(OWNER, GATEWAY_A, recorder);
        decisions.clear();
        claim(GATEWAY_B, 7, 10);
        assertEquals(List.of("refused 1 to 2: MsgSeqNum too low, expecting 10 but received 7 logout 2"), decisions);
        assertEquals(0, ledger.holder(OWNER));
    }

    @Test
    void aLogonAboveTheKnownNumberIsGrantedAndTheGapLeftToTheResend() {
        claim(GATEWAY_A, 4, 0);
        assertEquals(List.of("granted 1 to 1 from 0 epoch 0 answer 1 nextIn 1"), decisions);
    }

    @Test
    void resetsStartANewEpochAtOne() {
        claim(GATEWAY_A, 1, 0);
        ledger.numberOut(OWNER);
        ledger.release(OWNER, GATEWAY_A, recorder);
        decisions.clear();
        ledger.claim(OWNER, GATEWAY_B, new SessionLedger.Claim(1, true, 0), 10, recorder);
        assertEquals(List.of("granted 1 to 2 from 0 epoch 1 answer 1 nextIn 2"), decisions);
        ledger.release(OWNER, GATEWAY_B, recorder);
        decisions.clear();
        ledger.claim(OWNER, GATEWAY_A, new SessionLedger.Claim(1, false, 5_000), 20, recorder);
        assertEquals(List.of("granted 1 to 1 from 0 epoch 2 answer 1 nextIn 2"), decisions,
            "a new trading session of the schedule");
        ledger.release(OWNER, GATEWAY_A, recorder);
        decisions.clear();
        ledger.claim(OWNER, GATEWAY_A, new SessionLedger.Claim(2, false, 5_000), 30, recorder);
        assertEquals(List.of("granted 1 to 1 from 0 epoch 2 answer 2 nextIn 3"), decisions,
            "the same trading session: no reset");
        assertEquals(3, ledger.resetLoggedOn(OWNER, GATEWAY_A) + 2, "a reset on the logged-on session answers 1");
        assertEquals(3, ledger.epoch(OWNER));
        assertEquals(2, ledger.nextIn(OWNER));
        assertEquals(0, ledger.resetLoggedOn(OWNER, GATEWAY_B), "only the holder resets");
    }

    @Test
    void aRestartedGatewayReleasesWhatItHeld() {
        claim(GATEWAY_A, 1, 0);
        claimOwner(2, GATEWAY_A, 1, 0);
        claimOwner(3, GATEWAY_B, 1, 0);
        ledger.releaseAll(GATEWAY_A, recorder);
        assertEquals(0, ledger.holder(1));
        assertEquals(0, ledger.holder(2));
        assertEquals(GATEWAY_B, ledger.holder(3));
    }

    @Test
    void everyFieldSurvivesTheSnapshot() throws Exception {
        claim(GATEWAY_A, 1, 0);
        ledger.numberOut(OWNER);
        ledger.inboundSeen(OWNER, 0, 3);
        ledger.claim(OWNER, GATEWAY_B, new SessionLedger.Claim(4, true, 99), 10, recorder); // waits: every claim field
        claimOwner(2, GATEWAY_B, 1, 0);
        ledger.claim(3, GATEWAY_A, new SessionLedger.Claim(1, false, 77), 5, recorder); // epoch and schedule start
        open[GATEWAY_B] = false;
        claimOwner(2, GATEWAY_A, 2, 20); // a takeover: counted
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ledger.write(new DataOutputStream(bytes));
        SessionLedger restored = new SessionLedger(3, TIMEOUT_NS, liveness);
        restored.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        Object[] before = entries(ledger);
        Object[] after = entries(restored);
        for (Field field : before[1].getClass().getDeclaredFields()) {
            field.setAccessible(true);
            boolean set = false;
            for (int owner = 1; owner < before.length; owner++) {
                assertEquals(field.get(before[owner]), field.get(after[owner]), "owner " + owner + ": "
                    + field.getName());
                set |= !isDefault(field.get(before[owner]));
            }
            assertTrue(set, field.getName() + " is set by some session here, so that a field the snapshot's"
                + " writer and reader both forget is caught");
        }
    }

    private static boolean isDefault(Object value) {
        return value.equals(0) || value.equals(0L) || value.equals(false);
    }

    private static Object[] entries(SessionLedger ledger) throws ReflectiveOperationException {
        Field field = SessionLedger.class.getDeclaredField("entries");
        field.setAccessible(true);
        return (Object[]) field.get(ledger);
    }

    private void claim(int slot, long logonSeqNum, long nowNs) {
        claimOwner(OWNER, slot, logonSeqNum, nowNs);
    }

    private void claimOwner(int owner, int slot, long logonSeqNum, long nowNs) {
        ledger.claim(owner, slot, new SessionLedger.Claim(logonSeqNum, false, 0), nowNs, recorder);
    }
}
