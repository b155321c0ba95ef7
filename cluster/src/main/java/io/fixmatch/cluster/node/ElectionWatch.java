package io.fixmatch.cluster.node;

import io.aeron.cluster.ElectionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Says in the node's log when its election stays open far longer than an election takes, and when it closes after
 * that. A node in an open election serves nobody, and Aeron itself is silent while some of its election's steps wait
 * (a new leader waits for followers to join its log with no timeout), so without this line ops see a node that
 * started and then nothing. The line names the step the election waits in and the positions, which tell a leader
 * waiting for followers from a node that cannot reach a majority.
 *
 * <p>One thread calls {@link #check}; it reads the node's counters only, so it may run beside the node's own threads.
 */
public final class ElectionWatch {
    private static final Logger LOG = LoggerFactory.getLogger(ElectionWatch.class);
    /** Reminders double from the patience up to this, so a node stuck for hours logs once a minute, not a flood. */
    private static final long MAX_REMINDER_NS = TimeUnit.MINUTES.toNanos(1);

    private final ClusterNode node;
    private final long patienceNs;
    private long openSinceNs = -1;
    private long nextWarningNs;
    private long reminderNs;
    private boolean warned;

    /**
     * A watch that speaks once an election has been open for {@code patienceMs}; {@link #patienceFor} gives the
     * venue's.
     */
    public ElectionWatch(ClusterNode node, long patienceMs) {
        if (patienceMs <= 0) {
            throw new IllegalArgumentException("the election watch's patience must be positive: " + patienceMs);
        }
        this.node = node;
        this.patienceNs = TimeUnit.MILLISECONDS.toNanos(patienceMs);
    }

    /**
     * The startup canvass (a node waits that long for every member at start) and twenty election timeouts: far more
     * than an election takes on a loaded machine (about a second on loopback), so a line means something waits.
     */
    public static long patienceFor(ClusterTimings timings) {
        return timings.startupCanvassMs() + 20 * timings.electionTimeoutMs();
    }

    /**
     * Looks at the election now ({@code nowNs} from {@link System#nanoTime}); logs and returns the line when there is
     * something to say, else null.
     */
    public String check(long nowNs) {
        ElectionState state = node.electionState();
        if (state == ElectionState.CLOSED) {
            String line = warned ? closedLine(nowNs) : null;
            openSinceNs = -1;
            warned = false;
            if (line != null) {
                LOG.info(line);
            }
            return line;
        }
        if (openSinceNs < 0) {
            openSinceNs = nowNs;
            nextWarningNs = nowNs + patienceNs;
            reminderNs = patienceNs;
        }
        if (nowNs - nextWarningNs < 0) {
            return null;
        }
        warned = true;
        reminderNs = Math.min(reminderNs * 2, MAX_REMINDER_NS);
        nextWarningNs = nowNs + reminderNs;
        String line = openLine(nowNs, state);
        LOG.warn(line);
        return line;
    }

    private String openLine(long nowNs, ElectionState state) {
        NodeSettings settings = node.settings();
        ClusterMembers members = settings.members();
        String others = members.members().stream().filter(member -> member.id() != settings.memberId())
            .map(member -> member.id() + " at " + member.consensusEndpoint()).collect(Collectors.joining(", "));
        return "cluster node " + settings.memberId() + ": election open for " + seconds(nowNs) + " s, waiting in "
            + (state == null ? "its start" : state) + " (role " + node.role() + ", term " + node.leadershipTermId()
            + ", election " + node.elections() + " since start; log appended to " + node.appendPosition()
            + ", committed to " + node.commitPosition() + "). It serves nobody until " + (members.size() / 2 + 1)
            + " of the " + members.size() + " nodes agree: check that the other nodes run and reach each other's"
            + " consensus ports (" + others + ")";
    }

    private String closedLine(long nowNs) {
        return "cluster node " + node.settings().memberId() + ": election closed after " + seconds(nowNs) + " s: "
            + node.role() + " in term " + node.leadershipTermId();
    }

    private String seconds(long nowNs) {
        return String.valueOf(TimeUnit.NANOSECONDS.toSeconds(nowNs - openSinceNs));
    }
}
