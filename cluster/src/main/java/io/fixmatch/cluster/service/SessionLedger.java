package io.fixmatch.cluster.service;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * Every FIX session's replicated state: which gateway holds it (the one it is logged on at), the next MsgSeqNum it
 * sends, the next one the cluster knows it expects, its reset epoch and the trading session its numbers were last
 * reset for. The cluster numbers every message a session sends (reports as the engine makes them, the gateways' own
 * messages when they pass through the log), so a gateway that takes a session over continues exactly where the lost
 * one stopped: no number can exist that the cluster does not know.
 *
 * <p>Who holds a session is decided here, in log order: a Logon at a gateway claims it; the claim is granted when no
 * gateway holds the session, or its holder is gone (its cluster session closed, or silent for the gateway timeout of
 * log time); while a live holder has it, the claim waits until the holder releases it (its client's connection
 * ended), the holder falls silent (a takeover), or the timeout passes (refused: the session is logged on there).
 *
 * <p>Deterministic: log time only, sessions scanned in owner order, no hashing. Written into the service's snapshot.
 */
final class SessionLedger {
    /** The outcome of a claim, a release or a timer, for the service to tell the gateways. */
    interface Decisions {
        /**
         * The session is {@code slot}'s now: it answers the Logon with {@code logonAnswerSeqNum} and expects
         * {@code nextIn} next. {@code previousSlot} lost it (0: nobody held it).
         */
        void granted(int owner, int slot, int previousSlot, int epoch, long logonAnswerSeqNum, long nextIn);

        /**
         * The claim of {@code slot} is refused; its Logout is numbered {@code logoutSeqNum} in the session (0: the
         * session is another gateway's: the Logout is outside its numbering).
         */
        void refused(int owner, int slot, String reason, long logoutSeqNum);
    }

    /** Whether a gateway's slot is alive at a log time, and until when it stays so without news. */
    interface Liveness {
        boolean alive(int slot, long nowNs);

        /** The log time from which the slot counts as silent if it says nothing more. */
        long silentFromNs(int slot);
    }

    /** A claim's wishes beside the session: from its Logon and the gateway's configuration. */
    record Claim(long logonSeqNum, boolean resetRequested, long scheduleStartMs) {
    }

    private static final class Entry {
        int holder;
        int epoch;
        long nextOut = 1;
        long nextIn = 1;
        long tradingSessionStartMs;
        long takeovers;
        int claimSlot;
        long claimDeadlineNs;
        long claimLogonSeqNum;
        boolean claimReset;
        long claimScheduleStartMs;
    }

    private final Entry[] entries;
    private final long gatewayTimeoutNs;
    private final Liveness liveness;

    SessionLedger(int ownerCount, long gatewayTimeoutNs, Liveness liveness) {
        this.entries = new Entry[ownerCount + 1];
        for (int owner = 1; owner <= ownerCount; owner++) {
            entries[owner] = new Entry();
        }
        this.gatewayTimeoutNs = gatewayTimeoutNs;
        this.liveness = liveness;
    }

    int ownerCount() {
        return entries.length - 1;
    }

    boolean isOwner(int owner) {
        return owner >= 1 && owner < entries.length;
    }

    /** The slot holding the session (0: none). */
    int holder(int owner) {
        return entries[owner].holder;
    }

    int epoch(int owner) {
        return entries[owner].epoch;
    }

    long nextOut(int owner) {
        return entries[owner].nextOut;
    }

    long nextIn(int owner) {
        return entries[owner].nextIn;
    }

    long takeovers(int owner) {
        return entries[owner].takeovers;
    }

    /** Every takeover of every session: a session moved from a gateway that was gone. */
    long takeovers() {
        long total = 0;
        for (int owner = 1; owner < entries.length; owner++) {
            total += entries[owner].takeovers;
        }
        return total;
    }

    /** The next outbound number of the session, taken: a message numbered now. */
    long numberOut(int owner) {
        return entries[owner].nextOut++;
    }

    /** A message of the session's client, numbered {@code seqNum} in {@code epoch}, has reached the cluster. */
    void inboundSeen(int owner, int epoch, long seqNum) {
        Entry entry = entries[owner];
        if (epoch == entry.epoch && seqNum >= entry.nextIn) {
            entry.nextIn = seqNum + 1;
        }
    }

    /** A Logon at the gateway in {@code slot} claims the session. */
    void claim(int owner, int slot, Claim claim, long nowNs, Decisions decisions) {
        Entry entry = entries[owner];
        if (entry.holder == 0 || entry.holder == slot || !liveness.alive(entry.holder, nowNs)) {
            grant(owner, slot, claim, decisions);
            return;
        }
        if (entry.claimSlot != 0 && entry.claimSlot != slot) {
            decisions.refused(owner, entry.claimSlot, "a later Logon at another gateway took its place", 0);
        }
        entry.claimSlot = slot;
        entry.claimDeadlineNs = nowNs + gatewayTimeoutNs;
        entry.claimLogonSeqNum = claim.logonSeqNum();
        entry.claimReset = claim.resetRequested();
        entry.claimScheduleStartMs = claim.scheduleStartMs();
    }

    /** The gateway in {@code slot} no longer has the session's client (a Logout, a lost connection). */
    void release(int owner, int slot, Decisions decisions) {
        Entry entry = entries[owner];
        if (entry.holder != slot) {
            return; // taken over meanwhile, or released already
        }
        entry.holder = 0;
        if (entry.claimSlot != 0) {
            grantWaiting(owner, decisions);
        }
    }

    /** A new process said hello in {@code slot}: whatever the slot held, its connections are gone. */
    void releaseAll(int slot, Decisions decisions) {
        for (int owner = 1; owner < entries.length; owner++) {
            release(owner, slot, decisions);
        }
    }

    /** Log time passed (a timer, or any message): waiting claims whose holder fell silent or who waited long enough. */
    void expire(long nowNs, Decisions decisions) {
        for (int owner = 1; owner < entries.length; owner++) {
            Entry entry = entries[owner];
            if (entry.claimSlot == 0) {
                continue;
            }
            if (!liveness.alive(entry.holder, nowNs)) {
                grantWaiting(owner, decisions);
            } else if (nowNs >= entry.claimDeadlineNs) {
                int slot = entry.claimSlot;
                entry.claimSlot = 0;
                decisions.refused(owner, slot, "the session is logged on at another gateway", 0);
            }
        }
    }

    /**
     * A new leadership term began at log time {@code termStartNs}: every gateway is given the timeout from there on to
     * be heard again (the election's silence is no gateway's), so a waiting claim waits as long: at its deadline a
     * holder that said nothing since the term began is silent and the claim granted, not refused because the holder
     * counted as alive only through the election (a gateway killed with the leader left its sessions' Logons at the
     * other gateway refused, then taken over two seconds later).
     */
    void termBegan(long termStartNs) {
        for (int owner = 1; owner < entries.length; owner++) {
            Entry entry = entries[owner];
            if (entry.claimSlot != 0) {
                entry.claimDeadlineNs = Math.max(entry.claimDeadlineNs, termStartNs + gatewayTimeoutNs);
            }
        }
    }

    /** When {@link #expire} next has something to decide (log time), or 0 if no claim waits. */
    long nextDeadlineNs() {
        long next = 0;
        for (int owner = 1; owner < entries.length; owner++) {
            Entry entry = entries[owner];
            if (entry.claimSlot != 0) {
                long due = Math.min(entry.claimDeadlineNs, liveness.silentFromNs(entry.holder));
                next = next == 0 ? due : Math.min(next, due);
            }
        }
        return next;
    }

    /** The slots (gateways) holding sessions, by owner: {@code holders[owner]}; for the welcome and admin. */
    int[] holders() {
        int[] holders = new int[entries.length];
        for (int owner = 1; owner < entries.length; owner++) {
            holders[owner] = entries[owner].holder;
        }
        return holders;
    }

    private void grantWaiting(int owner, Decisions decisions) {
        Entry entry = entries[owner];
        int slot = entry.claimSlot;
        entry.claimSlot = 0;
        grant(owner, slot, new Claim(entry.claimLogonSeqNum, entry.claimReset, entry.claimScheduleStartMs),
            decisions);
    }

    private void grant(int owner, int slot, Claim claim, Decisions decisions) {
        Entry entry = entries[owner];
        if (claim.resetRequested()) {
            reset(entry);
        } else if (claim.scheduleStartMs() > entry.tradingSessionStartMs) {
            reset(entry);
            entry.tradingSessionStartMs = claim.scheduleStartMs();
        }
        if (!claim.resetRequested() && claim.logonSeqNum() < entry.nextIn) {
            // Granting was allowed (no live gateway has the session), so the Logout is numbered in the session.
            decisions.refused(owner, slot, "MsgSeqNum too low, expecting " + entry.nextIn + " but received "
                + claim.logonSeqNum(), entry.nextOut++);
            return;
        }
        int previous = entry.holder;
        if (previous != 0 && previous != slot) {
            entry.takeovers++;
        }
        entry.holder = slot;
        long answer = entry.nextOut++;
        if (claim.logonSeqNum() == entry.nextIn) {
            entry.nextIn++;
        }
        decisions.granted(owner, slot, previous == slot ? 0 : previous, entry.epoch, answer, entry.nextIn);
    }

    private static void reset(Entry entry) {
        entry.epoch++;
        entry.nextOut = 1;
        entry.nextIn = 1;
    }

    /**
     * A Logon with ResetSeqNumFlag=Y on the logged-on session: both numbers start again at 1 in a new epoch, the
     * answer numbered 1. Returns the answer's number, or 0 if {@code slot} does not hold the session.
     */
    long resetLoggedOn(int owner, int slot) {
        Entry entry = entries[owner];
        if (entry.holder != slot) {
            return 0;
        }
        reset(entry);
        entry.nextIn = 2; // the Logon was number 1
        return entry.nextOut++;
    }

    // --- snapshot ---

    void write(DataOutputStream out) throws IOException {
        out.writeShort(entries.length - 1);
        for (int owner = 1; owner < entries.length; owner++) {
            Entry entry = entries[owner];
            out.writeInt(entry.holder);
            out.writeInt(entry.epoch);
            out.writeLong(entry.nextOut);
            out.writeLong(entry.nextIn);
            out.writeLong(entry.tradingSessionStartMs);
            out.writeLong(entry.takeovers);
            out.writeInt(entry.claimSlot);
            out.writeLong(entry.claimDeadlineNs);
            out.writeLong(entry.claimLogonSeqNum);
            out.writeBoolean(entry.claimReset);
            out.writeLong(entry.claimScheduleStartMs);
        }
    }

    void read(DataInputStream in) throws IOException {
        int count = in.readUnsignedShort();
        if (count > entries.length - 1) {
            throw new IllegalStateException("the snapshot holds " + count + " sessions, this node configures "
                + (entries.length - 1));
        }
        for (int owner = 1; owner <= count; owner++) { // sessions added at the end since start afresh
            Entry entry = entries[owner];
            entry.holder = in.readInt();
            entry.epoch = in.readInt();
            entry.nextOut = in.readLong();
            entry.nextIn = in.readLong();
            entry.tradingSessionStartMs = in.readLong();
            entry.takeovers = in.readLong();
            entry.claimSlot = in.readInt();
            entry.claimDeadlineNs = in.readLong();
            entry.claimLogonSeqNum = in.readLong();
            entry.claimReset = in.readBoolean();
            entry.claimScheduleStartMs = in.readLong();
        }
    }
}
