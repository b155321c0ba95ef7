package io.fixmatch.cluster.client;

/** What a gateway's cluster link shows other threads (admin endpoint, metrics); one writer, the link's thread. */
public final class LinkStatus {
    volatile String state = "CONNECTING";
    volatile boolean available;
    volatile int leaderMemberId = -1;
    volatile long leadershipTermId = -1;
    volatile long leaderChanges;
    volatile long reofferedCommands;
    volatile long resumes;
    volatile long gaps;
    volatile long duplicateBatches;
    volatile long backPressured;
    volatile long unanswered;
    volatile long lastEgress;
    volatile long commandsSent;
    volatile long reconnects;

    /** CONNECTING, WELCOMING (said hello, waiting for the cluster's answer), LIVE or CLOSED. */
    public String state() {
        return state;
    }

    /** Whether new orders are taken: connected to a leader, and no command waiting too long for its answer. */
    public boolean available() {
        return available;
    }

    public int leaderMemberId() {
        return leaderMemberId;
    }

    public long leadershipTermId() {
        return leadershipTermId;
    }

    /** New leaders this gateway has been told of since it connected. */
    public long leaderChanges() {
        return leaderChanges;
    }

    /** Commands offered again after a leader change or an overdue answer. */
    public long reofferedCommands() {
        return reofferedCommands;
    }

    /** Times this gateway asked the cluster to send its egress again from where it stood. */
    public long resumes() {
        return resumes;
    }

    /** Egress batches that arrived after a gap (one lost on the way; asked for again). */
    public long gaps() {
        return gaps;
    }

    public long duplicateBatches() {
        return duplicateBatches;
    }

    /** Offers the cluster's ingress refused for back-pressure or because no leader was connected (retried). */
    public long backPressured() {
        return backPressured;
    }

    /** Commands sent and not answered yet. */
    public long unanswered() {
        return unanswered;
    }

    public long lastEgress() {
        return lastEgress;
    }

    public long commandsSent() {
        return commandsSent;
    }

    /** Times the link lost its cluster session and connected again. */
    public long reconnects() {
        return reconnects;
    }
}
