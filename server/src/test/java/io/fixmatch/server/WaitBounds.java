package io.fixmatch.server;

import java.time.Duration;

/**
 * How long the server's tests wait for a condition before they fail. These are failure deadlines, never sleeps: a
 * wait ends as soon as its condition holds, so a passing test never pays them. They are sized for a busy 2-core CI
 * machine (other builds running, a JVM starting with Chronicle and Aeron in 10 s or more), where a short bound fails
 * a correct venue (docs/TESTING.md, "Waits").
 */
public final class WaitBounds {
    /**
     * A child JVM (server, tool) prints a line it is expected to (its ready line, say) or exits. On this 2-core machine
     * with other builds running (load average 30-40) a JVM has been seen silent for two minutes.
     */
    public static final Duration PROCESS = Duration.ofSeconds(180);
    /**
     * A running server answers: a FIX message, a Logon, a close, an HTTP request, a state a test polls for (in this JVM
     * or another, in either mode; a cluster gateway's answer may wait for an election).
     */
    public static final Duration ANSWER = Duration.ofSeconds(60);
    /**
     * A cluster node or gateway process is ready (its JVM started, a leader elected, the log caught up), or a cluster
     * elects a leader, catches up or takes a snapshot after a node was started, killed or frozen.
     */
    public static final Duration CLUSTER = Duration.ofSeconds(300);

    private WaitBounds() {
    }
}
