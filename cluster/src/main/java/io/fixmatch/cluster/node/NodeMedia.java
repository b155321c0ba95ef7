package io.fixmatch.cluster.node;

import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.client.AeronArchive;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.NoOpLock;

/**
 * A node's media driver and archive (its copy of the log and snapshots, in {@code archive/} of its data folder), as
 * the node runs them and as {@link NodeSeed} runs them before the node starts on an empty folder.
 */
final class NodeMedia {
    private NodeMedia() {
    }

    static MediaDriver.Context driver(NodeSettings settings, ErrorHandler errors) {
        return new MediaDriver.Context()
            .aeronDirectoryName(settings.aeronDirectory().toString())
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(settings.idle().newStrategy())
            .termBufferSparseFile(true)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .errorHandler(errors);
    }

    static Archive.Context archive(NodeSettings settings, ErrorHandler errors) {
        ClusterMember self = settings.self();
        return new Archive.Context()
            .aeronDirectoryName(settings.aeronDirectory().toString())
            .archiveDir(settings.dataDirectory().resolve("archive").toFile())
            .archiveId(settings.memberId())
            .controlChannel("aeron:udp?endpoint=" + self.archiveEndpoint())
            .localControlChannel("aeron:ipc?term-length=64k")
            .replicationChannel("aeron:udp?endpoint=" + self.host() + ":0")
            .recordingEventsEnabled(false)
            .threadingMode(ArchiveThreadingMode.SHARED)
            .idleStrategySupplier(settings.idle()::newStrategy)
            .errorHandler(errors);
    }

    /** A client of the node's own archive, over IPC. */
    static AeronArchive.Context archiveClient(NodeSettings settings, Archive.Context archive) {
        return new AeronArchive.Context()
            .lock(NoOpLock.INSTANCE)
            .controlRequestChannel(archive.localControlChannel())
            .controlRequestStreamId(archive.localControlStreamId())
            .controlResponseChannel("aeron:ipc?term-length=64k")
            .aeronDirectoryName(settings.aeronDirectory().toString());
    }
}
