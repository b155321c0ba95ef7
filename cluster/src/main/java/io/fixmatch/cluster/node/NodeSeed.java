package io.fixmatch.cluster.node;

import io.aeron.archive.Archive;
import io.aeron.archive.ArchivingMediaDriver;
import io.aeron.archive.client.AeronArchive;
import io.aeron.cluster.ClusterBackup;
import io.aeron.cluster.ClusterBackupEventsListener;
import io.aeron.cluster.ClusterMember;
import io.aeron.cluster.RecordingLog;
import org.agrona.ErrorHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Fills an empty node's data folder from the running cluster before the node starts ({@code fixmatch-node
 * --from-snapshot}): Aeron's {@link ClusterBackup} copies the cluster's newest snapshots (the consensus module's and
 * the matching service's) and the log from that snapshot on into this node's archive and recording log, at least up to
 * the start of the log's last term (beyond the snapshot when an election came after it). The node then starts as any
 * node restarted on its disk does: from the snapshot, replaying only the log after it, then catching up with the
 * leader. Without it, a node on an empty disk replays the whole log from the cluster's start (Aeron Cluster
 * ships snapshots to a member only through its commercial standby nodes).
 */
public final class NodeSeed {
    private static final Logger LOG = LoggerFactory.getLogger(NodeSeed.class);

    private NodeSeed() {
    }

    /**
     * Copies the newest snapshot and the log after it, waiting at most {@code timeout} for a member to answer and the
     * copy to reach the start of the log's last term. Throws IllegalArgumentException if the folder already holds a
     * node's state, IllegalStateException if the copy does not get there in time.
     */
    public static void seed(NodeSettings settings, Duration timeout) throws InterruptedException {
        Path consensus = settings.dataDirectory().resolve("consensus");
        if (Files.exists(consensus.resolve(RecordingLog.RECORDING_LOG_FILE_NAME))) {
            throw new IllegalArgumentException("--from-snapshot needs an empty data folder: " + consensus
                + " holds a node's state (start the node without --from-snapshot, or on an empty folder)");
        }
        ClusterNode.checkClusterName(settings);
        createDirectory(consensus);
        long deadline = System.nanoTime() + timeout.toNanos();
        ErrorHandler errors = error -> ClusterNode.logError(settings.memberId(), error);
        Progress progress = new Progress(settings.memberId());
        Archive.Context archive = NodeMedia.archive(settings, errors);
        LOG.info("node {}: copying the cluster's newest snapshot and the log after it (Aeron ClusterBackup)",
            settings.memberId());
        long copiedThrough;
        try (ArchivingMediaDriver media = ArchivingMediaDriver.launch(NodeMedia.driver(settings, errors), archive);
             AeronArchive client = AeronArchive.connect(NodeMedia.archiveClient(settings, archive))) {
            try (ClusterBackup backup = ClusterBackup.launch(backupContext(settings, archive, errors, progress))) {
                if (!progress.termKnown.await(remainingMillis(deadline), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("no copy of the cluster's snapshot within " + timeout.toSeconds()
                        + " s: are the other members running (cluster.members)?");
                }
                awaitLastTermReached(client, progress, deadline, timeout);
            }
            copiedThrough = stopLogRecording(client, progress.liveLogRecordingId);
        }
        long lastTermBase = lastTermBase(consensus);
        if (copiedThrough < lastTermBase) {
            // The backup learned of a later term as it was being closed (a new query after losing its source).
            throw new IllegalStateException("the copied log ends at position " + copiedThrough + ", before its last"
                + " term starts (" + lastTermBase + "): empty " + settings.dataDirectory() + " and seed again");
        }
        LOG.info("node {}: copied {}, and the log after it through position {} (its last term starts at {})",
            settings.memberId(), progress.snapshotLogPosition < 0
                ? "no snapshot (the cluster has none yet: the log from its start)"
                : "the snapshot at log position " + progress.snapshotLogPosition, copiedThrough, lastTermBase);
    }

    /**
     * The backup writes the log's last term into the recording log as soon as it starts copying the log from the
     * snapshot on, long before the copy reaches that term when an election came after the snapshot. The node must
     * not start before it does: a node whose recording log names a term its log does not reach is refused by every
     * leader of that term (Aeron's "invalid newLeadershipTerm - this.appendPosition=... < termBaseLogPosition=...")
     * and never becomes ready. The copy is bounded by the cluster's commit position, which is past the term's start.
     */
    private static void awaitLastTermReached(AeronArchive client, Progress progress, long deadline, Duration timeout)
        throws InterruptedException {
        while (true) {
            long termBase = progress.lastTermBase;
            long position = client.getRecordingPosition(progress.liveLogRecordingId);
            if (position != AeronArchive.NULL_POSITION && position >= termBase) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the copy of the cluster's log did not reach the start of its last"
                    + " term (" + termBase + ") within " + timeout.toSeconds() + " s: it is at " + position);
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    private static long lastTermBase(Path consensus) {
        try (RecordingLog log = new RecordingLog(consensus.toFile(), false)) {
            RecordingLog.Entry term = log.findLastTerm();
            return term == null ? 0 : term.termBaseLogPosition;
        }
    }

    private static long remainingMillis(long deadline) {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }

    private static ClusterBackup.Context backupContext(NodeSettings settings, Archive.Context archive,
                                                       ErrorHandler errors, Progress progress) {
        io.fixmatch.cluster.node.ClusterMember self = settings.self();
        String others = IntStream.range(0, settings.members().size()).filter(id -> id != settings.memberId())
            .mapToObj(id -> settings.members().get(id).consensusEndpoint()).collect(Collectors.joining(","));
        String aeronDir = settings.aeronDirectory().toString();
        return new ClusterBackup.Context()
            .aeronDirectoryName(aeronDir)
            .clusterDir(settings.dataDirectory().resolve("consensus").toFile())
            .clusterConsensusEndpoints(others)
            // The members answer on this node's ingress port: while the node is down nothing else listens there, and
            // the answers use the consensus stream, not the gateways' ingress stream.
            .consensusChannel("aeron:udp?endpoint=" + self.ingressEndpoint())
            .catchupEndpoint(self.catchupEndpoint())
            .archiveContext(NodeMedia.archiveClient(settings, archive))
            .clusterArchiveContext(new AeronArchive.Context() // the endpoint: the answering member's archive
                .aeronDirectoryName(aeronDir)
                .controlRequestChannel("aeron:udp?term-length=64k")
                .controlResponseChannel("aeron:udp?endpoint=" + self.host() + ":0"))
            .initialReplayStart(ClusterBackup.Configuration.ReplayStart.LATEST_SNAPSHOT)
            .clusterBackupCoolDownIntervalNs(TimeUnit.SECONDS.toNanos(1))
            .deleteDirOnStart(false)
            .eventsListener(progress)
            .errorHandler(errors);
    }

    /**
     * The copy of the log is a live recording; the backup's close only asks for its end. It must be stopped (its stop
     * position known) before the node starts: the node replays its log up to that position, and would wait forever
     * on an open recording. Returns the stop position.
     */
    private static long stopLogRecording(AeronArchive client, long recordingId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (client.getStopPosition(recordingId) == AeronArchive.NULL_POSITION) {
            client.tryStopRecordingByIdentity(recordingId);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the copied log's recording " + recordingId + " did not stop");
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        return client.getStopPosition(recordingId);
    }

    private static void createDirectory(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + directory, e);
        }
    }

    /**
     * The backup's progress, on its thread: the term known once the recording log holds the snapshot (when the cluster
     * has one) and the log's last term, and the log after the snapshot is being recorded. What the node needs is then
     * that recording up to the last term's start ({@link #awaitLastTermReached}); it catches up the rest itself.
     * Waiting for the recording to move beyond would wait forever on an idle cluster.
     */
    private static final class Progress implements ClusterBackupEventsListener {
        private final int memberId;
        final CountDownLatch termKnown = new CountDownLatch(1);
        volatile long snapshotLogPosition = -1;
        volatile long liveLogRecordingId = -1;
        /** Where the log's last term starts, as the recording log has it (a later answer may name a later term). */
        volatile long lastTermBase;

        Progress(int memberId) {
            this.memberId = memberId;
        }

        @Override
        public void onBackupQuery() {
        }

        @Override
        public void onPossibleFailure(Exception failure) {
            LOG.warn("node {}: the snapshot copy: {}", memberId, failure.toString());
        }

        @Override
        public void onBackupResponse(ClusterMember[] clusterMembers, ClusterMember logSourceMember,
                                     List<RecordingLog.Snapshot> snapshotsToRetrieve) {
            LOG.info("node {}: member {} answered: {} snapshots to copy, the log from member {}", memberId,
                logSourceMember == null ? "?" : logSourceMember.id(), snapshotsToRetrieve.size(),
                logSourceMember == null ? "?" : logSourceMember.id());
        }

        @Override
        public void onUpdatedRecordingLog(RecordingLog recordingLog, List<RecordingLog.Snapshot> snapshotsRetrieved) {
            for (RecordingLog.Snapshot snapshot : snapshotsRetrieved) {
                snapshotLogPosition = Math.max(snapshotLogPosition, snapshot.logPosition);
            }
            RecordingLog.Entry term = recordingLog.findLastTerm();
            if (term != null) {
                liveLogRecordingId = term.recordingId;
                lastTermBase = term.termBaseLogPosition;
                LOG.info("node {}: the log's last term, {}, starts at position {}", memberId, term.leadershipTermId,
                    term.termBaseLogPosition);
                termKnown.countDown();
            }
        }

        @Override
        public void onLiveLogProgress(long recordingId, long recordingPosCounterId, long logPosition) {
        }
    }
}
