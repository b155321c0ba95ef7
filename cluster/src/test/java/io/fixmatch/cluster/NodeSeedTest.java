package io.fixmatch.cluster;

import io.fixmatch.cluster.ClusterRoundTripTest.LinkedCluster;
import io.fixmatch.cluster.node.ClusterNode;
import io.fixmatch.cluster.node.NodeSeed;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node seeded from the cluster's snapshot ({@code --from-snapshot}: {@link NodeSeed}, Aeron's ClusterBackup) joins
 * the cluster when elections came between that snapshot and the seeding, and during it: the cluster's newest snapshot
 * then lies in an earlier term than the log's last, whose start the copied log must reach before the node starts. A
 * node whose recording log names a term its log does not reach is refused by every leader (Aeron's "invalid
 * newLeadershipTerm - this.appendPosition=... < termBaseLogPosition=..."), and it never becomes ready: seen once under
 * heavy load, where the copy had not got that far when the seeding stopped it.
 */
@Timeout(600)
class NodeSeedTest {
    /**
     * Log between the snapshot and the election, in messages the service ignores (of no known type): far more than a
     * copy makes in the moments between the backup naming the last term and the seeding stopping it (15 MB: about
     * 0.4 s of copying here; the seeding without its wait for the last term's start fails this test with it, as it did
     * with the 60 MB this was before, which took 7 s of the test's 18 to write and copy twice).
     */
    private static final int PADDING_MESSAGES = 30;
    private static final int PADDING_BYTES = 500 * 1024;
    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void nodesSeededAfterAnElectionThatFollowedTheNewestSnapshotAndDuringAnotherJoin() throws Exception {
        try (LinkedCluster venue = LinkedCluster.open(3, 1 << 24)) {
            TestCluster cluster = venue.cluster;
            int first = venue.leader;
            send(venue, 100, "before");
            assertTrue(cluster.node(first).requestSnapshot());
            awaitSnapshots(cluster);
            pad(cluster);
            send(venue, 100, "after");
            cluster.kill(first); // an election: the log's last term starts after the snapshot
            int second = cluster.awaitLeader(WAIT.toMillis());
            send(venue, 100, "term");

            // The first leader's node from an empty disk: the backup names the current term at once, the copy is
            // megabytes short of its start.
            deleteTree(cluster.nodeSettings(first).dataDirectory());
            seed(cluster, first);
            ClusterNode seeded = cluster.start(first);
            send(venue, 100, "joined");
            awaitSameCommands(seeded, cluster.node(second));

            // A follower from an empty disk while the leader is killed and started again on its disk: the backup
            // answers before, during or after that election (the member it copies from may be the one killed).
            int follower = 3 - first - second;
            cluster.kill(follower);
            deleteTree(cluster.nodeSettings(follower).dataDirectory());
            CompletableFuture<Void> seeding = CompletableFuture.runAsync(() -> seed(cluster, follower));
            cluster.kill(second);
            cluster.start(second);
            seeding.get(WAIT.toSeconds() + 10, TimeUnit.SECONDS);
            ClusterNode reseeded = cluster.start(follower);
            int leader = cluster.awaitLeader(WAIT.toMillis());
            send(venue, 100, "again");
            awaitSameCommands(reseeded, cluster.node(leader));
        }
    }

    private static void seed(TestCluster cluster, int id) {
        try {
            NodeSeed.seed(cluster.nodeSettings(id), WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Megabytes of log the service ignores (each message of an unknown type, logged and passed over). */
    private static void pad(TestCluster cluster) throws InterruptedException {
        UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(PADDING_BYTES));
        message.putByte(0, (byte) 99);
        try (RawClusterClient raw = new RawClusterClient(cluster)) {
            for (int i = 0; i < PADDING_MESSAGES; i++) {
                raw.send(message, PADDING_BYTES);
            }
        }
    }

    /** IOC buys against an empty book: each one journaled and answered, none resting. */
    private static void send(LinkedCluster venue, int count, String prefix) throws InterruptedException {
        Command command = new Command();
        for (int i = 0; i < count; i++) {
            while (!venue.inbound.offer(command.newOrder(1 + i % 3, prefix + i, i % 2, Side.BUY, OrderType.LIMIT,
                TimeInForce.IOC, 10_000, 1))) {
                Thread.onSpinWait();
            }
            if (i % 500 == 499) {
                ClusterRoundTripTest.awaitQuiet(venue.link);
            }
        }
        ClusterRoundTripTest.awaitQuiet(venue.link);
    }

    private static void awaitSnapshots(TestCluster cluster) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        for (int id = 0; id < 3; id++) {
            while (cluster.node(id).status().snapshots() == 0) {
                assertTrue(System.nanoTime() < deadline, "node " + id + " took no snapshot");
                Thread.sleep(10);
            }
        }
    }

    /** The seeded node has applied every command the leader has (it joined and caught up). */
    private static void awaitSameCommands(ClusterNode seeded, ClusterNode leader) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!seeded.status().started() || seeded.status().commandSequence() != leader.status().commandSequence()) {
            assertTrue(System.nanoTime() < deadline, "the seeded node has not caught up within " + WAIT + ": "
                + seeded.status().commandSequence() + " commands applied, the leader " + leader.status()
                .commandSequence() + "; its election closed: " + seeded.electionClosed());
            Thread.sleep(20);
        }
    }

    private static void deleteTree(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
