package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.loop.EnginePersistence;
import io.fixmatch.engine.matching.MatchingEngine;
import net.openhft.chronicle.core.time.TimeProvider;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;

/**
 * A cluster node's own journal of the commands its matching service applies, in the standalone journal's record
 * format (so {@code journal-dump}, {@code book-at} and every tool read it), one record per command in the cluster
 * log's order, stamped with the log's time; the files roll by the log's clock, so every node's journal holds the same
 * records.
 *
 * <p>The node's state does not come from here: the cluster restores it from its snapshot and log. So this journal
 * numbers commands by the service's command sequence (1, 2, 3... in log order, part of the replicated state), which
 * is also the origin position of their events, and it is written idempotently: when a restarted node replays the log
 * after its snapshot, the commands its journal already holds are passed over, the rest appended. Which commands it
 * holds is known from {@code replica-positions} (pairs of command sequence and Chronicle index, written when an
 * empty journal gets its first command, at each snapshot and at a clean stop) and the records after the last pair.
 *
 * <p>It never refuses a command: replicated state must not depend on one node's disk. An append that fails (a full
 * disk) is logged and ends this journal's appends: the node then stops ({@link #failure()}, read by its main), the
 * others go on, and once restarted on a disk with room it replays the log from its snapshot and this journal goes on
 * from the first command it lacks, so it has no gap.
 */
public final class ReplicaJournal implements EnginePersistence {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaJournal.class);
    static final String POSITIONS_FILE = "replica-positions";
    private static final int PAIR_BYTES = 2 * Long.BYTES;

    private final ChroniclePersistence journal;
    private final Path positionsFile;
    private final ByteBuffer pair = ByteBuffer.allocate(PAIR_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    /** The sequence of the last command processed (journaled here or not). */
    private long commandSequence;
    /** The sequence of the last command this journal holds (0: none). */
    private long heldThrough;
    private long lastAppendedIndex = -1;
    /** Why an append failed (then nothing more is appended), or null; read by other threads. */
    private volatile String failure;

    private ReplicaJournal(ChroniclePersistence journal, Path positionsFile) {
        this.journal = journal;
        this.positionsFile = positionsFile;
    }

    /**
     * Opens (or creates) a node's journal; {@code logClock} reads the cluster log's time of the command being applied.
     */
    public static ReplicaJournal open(JournalConfig config, List<SymbolSpec> symbols, List<String> owners,
                                      EpochNanoClock logClock) {
        TimeProvider time = () -> logClock.nanoTime() / 1_000_000L;
        ChroniclePersistence journal = ChroniclePersistence.openReplica(config, symbols, owners, time);
        ReplicaJournal replica = new ReplicaJournal(journal, config.directory().resolve(POSITIONS_FILE));
        replica.heldThrough = replica.readHeldThrough();
        return replica;
    }

    /** The last pair of {@code replica-positions} and the commands after its index, or every command if none. */
    private long readHeldThrough() {
        long sequence = 0;
        long index = JournalReader.NO_INDEX;
        try {
            if (Files.exists(positionsFile)) {
                byte[] bytes = Files.readAllBytes(positionsFile);
                int pairs = bytes.length / PAIR_BYTES;
                if (pairs > 0) {
                    ByteBuffer last = ByteBuffer.wrap(bytes, (pairs - 1) * PAIR_BYTES, PAIR_BYTES)
                        .order(ByteOrder.LITTLE_ENDIAN);
                    sequence = last.getLong();
                    index = last.getLong();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + positionsFile, e);
        }
        if (index == JournalReader.NO_INDEX && journal.lastIndex() < 0) {
            return 0;
        }
        long held = sequence + journal.commandsAfter(index);
        // Past the tables at its start, a node's journal holds only commands: its last record is the last command.
        lastAppendedIndex = held > 0 ? journal.lastIndex() : -1;
        return held;
    }

    /**
     * Before the first command: the service's command sequence as its state was restored (0 on a fresh cluster). The
     * log replayed after it numbers its commands from the next one.
     */
    public void resumeAt(long restoredSequence) {
        commandSequence = restoredSequence;
        if (heldThrough > 0) {
            LOG.info("journal holds commands through {}; the cluster's state resumes after {}", heldThrough,
                restoredSequence);
        }
    }

    /** The sequence of the last command processed (the origin position of its events). */
    public long commandSequence() {
        return commandSequence;
    }

    /** The sequence of the last command this node's journal holds. */
    public long heldThrough() {
        return heldThrough;
    }

    /** Nothing to recover from here: the node's state comes from the cluster's snapshot and log. */
    @Override
    public long recoverInto(MatchingEngine engine, long latestSnapshot) {
        return 0;
    }

    @Override
    public long replay(Consumer<Command> consumer) {
        throw new UnsupportedOperationException("a node's journal is read with the journal tools, not replayed here");
    }

    /**
     * Numbers the command and appends it unless the journal holds it already (a replay after a restart). Never
     * throws: a failed append is logged and ends the appends (see {@link #failure()}).
     */
    @Override
    public long append(DirectBuffer encodedCommand, int offset, int length) {
        long sequence = ++commandSequence;
        if (sequence <= heldThrough || failure != null) {
            return sequence;
        }
        try {
            long heldBefore = heldThrough;
            boolean gap = sequence != heldBefore + 1 || lastAppendedIndex == -1;
            long index = journal.append(encodedCommand, offset, length);
            heldThrough = sequence;
            lastAppendedIndex = index;
            if (gap) {
                recordPosition();
                if (sequence != 1) {
                    LOG.warn("journal continues at command {} (it held commands through {}): the commands between"
                        + " are in the cluster's log and snapshot, not in this node's journal", sequence, heldBefore);
                }
            }
        } catch (RuntimeException | InternalError e) { // InternalError: a fault writing a memory-mapped file
            failure = "journal append failed at command " + sequence + ": " + e.getMessage();
            LOG.error("journal append failed at command {}: this node's journal takes nothing more and the node"
                + " stops; the others go on. Restart it once its disk has room: it catches up from the cluster and"
                + " its journal goes on from command {}", sequence, sequence, e);
        }
        return sequence;
    }

    /**
     * Why this journal stopped taking commands (a full disk, say), or null while it takes them. The node must stop
     * then: a snapshot taken after it would leave the commands since the failure out of this journal for good.
     */
    public String failure() {
        return failure;
    }

    /**
     * At a snapshot and at a clean stop: records which Chronicle index holds the last command journaled, so a restart
     * counts only the records after it.
     */
    public void markPosition() {
        if (lastAppendedIndex != -1 && heldThrough > 0) {
            recordPosition();
        }
    }

    private void recordPosition() {
        pair.clear();
        pair.putLong(heldThrough).putLong(lastAppendedIndex).flip();
        try (FileChannel channel = FileChannel.open(positionsFile, StandardOpenOption.CREATE,
            StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            while (pair.hasRemaining()) {
                channel.write(pair);
            }
            channel.force(false);
        } catch (IOException e) {
            LOG.error("cannot record the journal's position in {}", positionsFile, e);
        }
    }

    /** A node's journal keeps no snapshots of its own (the cluster's are the node's); records its position. */
    @Override
    public long checkpoint(MatchingEngine engine) {
        markPosition();
        return commandSequence;
    }

    /** The Chronicle index of the last record (tests, tools). */
    public long lastIndex() {
        return journal.lastIndex();
    }

    @Override
    public void close() {
        journal.close();
    }
}
