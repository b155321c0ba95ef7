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
 * the matching service's) and the log from that snapshot on into this node's archive and recording log. The node then
 * starts as any node restarted on its disk does: from the snapshot, replaying only the log after it, then catching
 * up with the leader. Without it, a node on an empty disk replays the whole log from the cluster's start (Aeron Cluster
 * ships snapshots to a member only through its commercial standby nodes).
 */
public final class NodeSeed {
    private static final Logger LOG = LoggerFactory.getLogger(NodeSeed.class);

    private NodeSeed() {
    }

    /**
     * Copies the newest snapshot and the log after it, waiting at most {@code timeout} for a member to answer and the
     * copy to finish. Throws IllegalArgumentException if the folder already holds a node's state, IllegalStateException
     * if the copy does not finish in time.
     */
    public static void seed(NodeSettings settings, Duration timeout) throws InterruptedException {
        Path consensus = settings.dataDirectory().resolve("consensus");
        if (Files.exists(consensus.resolve(RecordingLog.RECORDING_LOG_FILE_NAME))) {
            throw new IllegalArgumentException("--from-snapshot needs an empty data folder: " + consensus
                + " holds a node's state (start the node without --from-snapshot, or on an empty folder)");
        }
        ClusterNode.checkClusterName(settings);
        createDirectory(consensus);
        ErrorHandler errors = error -> ClusterNode.logError(settings.memberId(), error);
        Progress progress = new Progress(settings.memberId());
        Archive.Context archive = NodeMedia.archive(settings, errors);
        LOG.info("node {}: copying the cluster's newest snapshot and the log after it (Aeron ClusterBackup)",
            settings.memberId());
        try (ArchivingMediaDriver media = ArchivingMediaDriver.launch(NodeMedia.driver(settings, errors), archive)) {
            try (ClusterBackup backup = ClusterBackup.launch(backupContext(settings, archive, errors, progress))) {
                if (!progress.done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("no copy of the cluster's snapshot within " + timeout.toSeconds()
                        + " s: are the other members running (cluster.members)?");
                }
            }
            stopLogRecording(settings, archive, progress.liveLogRecordingId);
        }
        LOG.info("node {}: copied {}, and the log after it", settings.memberId(),
            progress.snapshotLogPosition < 0 ? "no snapshot (the cluster has none yet: the log from its start)"
                : "the snapshot at log position " + progress.snapshotLogPosition);
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
     * on an open recording.
     */
    private static void stopLogRecording(NodeSettings settings, Archive.Context archive, long recordingId)
        throws InterruptedException {
        try (AeronArchive client = AeronArchive.connect(NodeMedia.archiveClient(settings, archive))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (client.getStopPosition(recordingId) == AeronArchive.NULL_POSITION) {
                client.tryStopRecordingByIdentity(recordingId);
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the copied log's recording " + recordingId + " did not stop");
                }
                TimeUnit.MILLISECONDS.sleep(10);
            }
        }
    }

    private static void createDirectory(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + directory, e);
        }
    }

    /**
     * The backup's progress, on its thread: done once the recording log holds the snapshot (when the cluster has one)
     * and the term, and the log after the snapshot is being recorded.
     */
    private static final class Progress implements ClusterBackupEventsListener {
        private final int memberId;
        final CountDownLatch done = new CountDownLatch(1);
        volatile long snapshotLogPosition = -1;
        volatile long liveLogRecordingId = -1;

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
                // The snapshots and the term are in the recording log, and the log after the snapshot is being
                // recorded: what the node needs (it catches up the rest itself). Waiting for that recording to move
                // would wait forever on an idle cluster.
                liveLogRecordingId = term.recordingId;
                done.countDown();
            }
        }

        @Override
        public void onLiveLogProgress(long recordingId, long recordingPosCounterId, long logPosition) {
        }
    }
}
