package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.loop.EnginePersistence;
import io.fixmatch.engine.matching.MatchingEngine;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.core.time.TimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.StoreFileListener;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The engine's persistence on disk: the command journal on Chronicle Queue, one excerpt per command (see
 * {@link JournalFormat}), written by the matching thread, its only writer, and the book snapshots beside it
 * ({@link SnapshotDirectory}). An appended excerpt is in the memory-mapped queue file when
 * {@link #append} returns, so it survives the process being killed; it is not forced to the device (a power loss
 * or kernel crash can lose the last moments).
 *
 * <p>When the matching thread stops cleanly, the journal writes an {@link EngineSnapshot} of the books as of its
 * last record; the next recovery starts from the newest readable snapshot and replays only what follows. With
 * {@code retainCycles} set, journal files older than the snapshot's (beyond that many) are then deleted.
 */
public final class ChroniclePersistence implements EnginePersistence {
    private static final Logger LOG = LoggerFactory.getLogger(ChroniclePersistence.class);
    /** Written when retention deletes journal files: from then on the journal alone no longer holds all history. */
    static final String HISTORY_DELETED_MARKER = "history-deleted";

    private final JournalConfig config;
    private final SingleChronicleQueue queue;
    private final List<SymbolSpec> symbols;
    /** The session table (owner id k is the k-th name), or null when the caller has none (tools, engine tests). */
    private final List<String> owners;
    private final SnapshotDirectory snapshots;
    private final byte[] copyBuffer = new byte[CommandCodec.MAX_LENGTH];
    /** The file of each roll cycle this process has touched (Chronicle tells us as it acquires them). */
    private final Map<Integer, File> cycleFiles;
    private List<SymbolSpec> lastRecordedSymbols;
    private List<String> lastRecordedOwners;
    private ExcerptAppender appender;
    private boolean recovered;
    private File snapshotCycleFile;
    private long appendsSinceSnapshot;
    /** How often appends check the free space (a statfs call): far less than the headroom's worth of records. */
    static final int SPACE_CHECK_EVERY = 1024;
    private final File directoryFile;
    private int appendsUntilSpaceCheck;
    private boolean shortOfSpace;

    private ChroniclePersistence(JournalConfig config, SingleChronicleQueue queue, List<SymbolSpec> symbols,
                                 List<String> owners, Map<Integer, File> cycleFiles) {
        this.config = config;
        this.queue = queue;
        this.symbols = List.copyOf(symbols);
        this.owners = owners == null ? null : List.copyOf(owners);
        this.directoryFile = config.directory().toFile();
        this.cycleFiles = cycleFiles;
        this.snapshots = new SnapshotDirectory(config.snapshotDirectory());
    }

    /** Opens (or creates) the journal for an engine with these symbols; owners are neither recorded nor checked. */
    public static ChroniclePersistence open(JournalConfig config, List<SymbolSpec> symbols) {
        return open(config, symbols, null);
    }

    /**
     * Opens (or creates) the journal for an engine with these symbols and these owners: owner id k is the session
     * named {@code owners.get(k - 1)}. Recovery refuses a table that would give journaled owner ids to other sessions
     * (see {@link JournalFormat#ownersIncompatibility}); the first append records the table if the journal lacks it.
     */
    public static ChroniclePersistence open(JournalConfig config, List<SymbolSpec> symbols, List<String> owners) {
        return open(config, symbols, owners, null);
    }

    /**
     * A cluster node's journal ({@link ReplicaJournal}): appends only, nothing recovered from it (the node's state
     * comes from the cluster), roll cycles timed by {@code time} (the cluster log's clock, so that every node rolls at
     * the same record). The tables are recorded before the first command of an empty journal; a journal that has
     * records already holds them, and a configuration that would give its commands' ids another meaning is refused
     * ({@link JournalException}), as recovery refuses it: the node's state is built from the same commands.
     */
    static ChroniclePersistence openReplica(JournalConfig config, List<SymbolSpec> symbols, List<String> owners,
                                            TimeProvider time) {
        ChroniclePersistence journal = open(config, symbols, owners, time);
        journal.recovered = true;
        if (journal.queue.lastIndex() >= 0) {
            try {
                journal.checkTablesBeforeFirstCommand();
            } catch (RuntimeException e) {
                journal.queue.close();
                throw e;
            }
            journal.lastRecordedSymbols = journal.symbols;
            journal.lastRecordedOwners = journal.owners;
        }
        return journal;
    }

    /** Reads the journal up to its first command, checking the tables recorded before it against the configured. */
    private void checkTablesBeforeFirstCommand() {
        boolean[] commandRead = {false};
        CheckedCommands tables = new CheckedCommands(symbols, owners, (index, command) -> commandRead[0] = true);
        new JournalReader().readAll(queue, new JournalReader.Visitor() {
            @Override
            public void onSymbols(long index, List<SymbolSpec> recorded) {
                tables.onSymbols(index, recorded);
            }

            @Override
            public void onOwners(long index, List<String> recorded) {
                tables.onOwners(index, recorded);
            }

            @Override
            public void onCommand(long index, Command command) {
                tables.onCommand(index, command);
            }

            @Override
            public boolean hasEnough() {
                return commandRead[0];
            }
        });
    }

    private static ChroniclePersistence open(JournalConfig config, List<SymbolSpec> symbols, List<String> owners,
                                             TimeProvider time) {
        Map<Integer, File> cycleFiles = new ConcurrentHashMap<>();
        SingleChronicleQueue queue;
        try {
            SingleChronicleQueueBuilder builder = SingleChronicleQueueBuilder.single(config.directory().toFile());
            if (time != null) {
                builder.timeProvider(time);
            }
            queue = builder
                .rollCycle(config.parsedRollCycle())
                .storeFileListener(new StoreFileListener() {
                    @Override
                    public void onAcquired(int cycle, File file) {
                        cycleFiles.put(cycle, file);
                    }

                    @Override
                    public void onReleased(int cycle, File file) {
                        // kept: the mapping stays true after release
                    }
                })
                .build();
        } catch (Exception e) { // Chronicle also throws checked exceptions undeclared (a file that is no queue)
            throw new JournalException("cannot open the journal at " + config.directory() + ": " + e, e);
        }
        return new ChroniclePersistence(config, queue, symbols, owners, cycleFiles);
    }

    @Override
    public long recoverInto(MatchingEngine engine, long latestSnapshot) {
        try {
            return recover(engine, latestSnapshot);
        } catch (JournalException e) {
            throw e;
        } catch (Exception e) { // Chronicle's own errors on damaged files, some checked and undeclared
            throw new JournalException("cannot read the journal at " + config.directory() + ": " + e, e);
        }
    }

    private long recover(MatchingEngine engine, long latestSnapshot) {
        startRecovery();
        CheckedCommands commands = new CheckedCommands(symbols, owners, (index, command) -> engine.process(command));
        EngineSnapshot.Header snapshot = snapshots.newestReadable(latestSnapshot);
        long after = JournalReader.NO_INDEX;
        // One line as recovery begins: a long replay is visibly under way (the "recovered:" line ends it).
        if (snapshot != null) {
            after = snapshot.journalIndex();
            LOG.info("recovering: restoring snapshot {} (journal record {}), then replaying what follows",
                snapshot.file().getFileName(), JournalReader.describe(after));
            commands.startFrom(snapshot);
            EngineSnapshot.restore(snapshot.file(), engine);
        } else {
            refuseIfHistoryDeleted();
            LOG.info("recovering: replaying the journal from its first record (no usable snapshot)");
        }
        return read(after, commands);
    }

    @Override
    public long replay(Consumer<Command> consumer) {
        startRecovery();
        refuseIfHistoryDeleted();
        return read(JournalReader.NO_INDEX, new CheckedCommands(symbols, owners,
            (index, command) -> consumer.accept(command)));
    }

    /** Reads the records after {@code after}; the tables in force at the end are the ones appends continue. */
    private long read(long after, CheckedCommands commands) {
        long read = new JournalReader().readAfter(queue, after, commands);
        lastRecordedSymbols = commands.symbols();
        lastRecordedOwners = commands.owners();
        return read;
    }

    private void startRecovery() {
        if (recovered) {
            throw new IllegalStateException("the journal is recovered once, before appending");
        }
        recovered = true;
    }

    /** Replaying from the first remaining record after retention deleted older ones would build wrong books. */
    private void refuseIfHistoryDeleted() {
        if (Files.exists(config.directory().resolve(HISTORY_DELETED_MARKER))) {
            throw new JournalException("journal files in " + config.directory() + " were deleted by retention and no"
                + " readable snapshot covers them: the books cannot be rebuilt from the journal alone");
        }
    }

    /**
     * Chronicle appenders belong to one thread: the appender is made by the first append, on the matching thread,
     * which then records the symbol table if the journal does not hold this one yet.
     */
    private ExcerptAppender appender() {
        if (appender == null) {
            if (!recovered) {
                throw new IllegalStateException("recovery must run before the first append");
            }
            appender = queue.createAppender();
            if (!symbols.equals(lastRecordedSymbols)) {
                try (DocumentContext dc = appender.writingDocument()) {
                    JournalFormat.writeSymbols(dc.wire().bytes(), symbols);
                }
                lastRecordedSymbols = symbols;
                LOG.info("journal {}: recorded the symbol table ({} symbols)", queue.fileAbsolutePath(),
                    symbols.size());
            }
            if (owners != null && !owners.equals(lastRecordedOwners)) {
                try (DocumentContext dc = appender.writingDocument()) {
                    JournalFormat.writeOwners(dc.wire().bytes(), owners);
                }
                lastRecordedOwners = owners;
                LOG.info("journal {}: recorded the session table {} (owner ids 1..{})", queue.fileAbsolutePath(),
                    owners, owners.size());
            }
        }
        return appender;
    }

    /**
     * Writes one command record. If writing fails half way (a full disk, say), the record is rolled back, never
     * committed half written: Chronicle commits a document on close unless told otherwise, and recovery would then
     * find a damaged record and refuse to start.
     */
    @Override
    public long append(DirectBuffer encodedCommand, int offset, int length) {
        refuseIfShortOfSpace();
        DocumentContext dc = appender().writingDocument();
        try {
            Bytes<?> bytes = dc.wire().bytes();
            bytes.writeUnsignedByte(JournalFormat.VERSION);
            bytes.writeUnsignedByte(JournalFormat.KIND_COMMAND);
            byte[] array = encodedCommand.byteArray();
            if (array != null) {
                bytes.write(array, (int) encodedCommand.wrapAdjustment() + offset, length);
            } else if (encodedCommand.addressOffset() != 0) { // off-heap (a ring slot): copied from where it lies
                bytes.unsafeWrite(encodedCommand.addressOffset() + offset, length);
            } else {
                encodedCommand.getBytes(offset, copyBuffer, 0, length);
                bytes.write(copyBuffer, 0, length);
            }
            appendsSinceSnapshot++;
            return dc.index(); // Chronicle's index: positive, growing; the one a reader sees for this record
        } catch (RuntimeException | Error e) {
            dc.rollbackOnClose();
            throw e;
        } finally {
            dc.close();
        }
    }

    /**
     * A write to a memory-mapped file on a full disk does not fail where it happens: the JVM reports the fault later
     * (an InternalError at some next operation), after Chronicle may have committed the record's header, which leaves
     * a damaged record and a broken appender. So commands are refused before the disk is full: while the file system
     * has less than {@code minFreeBytes} free, checked every {@link #SPACE_CHECK_EVERY} appends and at every append
     * while short. Nothing is written then; the command is refused (JOURNAL_UNAVAILABLE) and appends resume once
     * space returns.
     */
    private void refuseIfShortOfSpace() {
        long minFree = config.minFreeBytes();
        if (minFree == 0 || (--appendsUntilSpaceCheck > 0 && !shortOfSpace)) {
            return;
        }
        appendsUntilSpaceCheck = SPACE_CHECK_EVERY;
        long free = directoryFile.getUsableSpace();
        shortOfSpace = free < minFree;
        if (shortOfSpace) {
            throw new JournalException("the disk of the journal " + config.directory() + " is nearly full: "
                + (free >> 20) + " MB free, " + (minFree >> 20) + " MB required (journal.minFreeMegabytes)");
        }
    }

    @Override
    public boolean snapshotDue() {
        return config.snapshotEveryCommands() > 0 && appendsSinceSnapshot >= config.snapshotEveryCommands();
    }

    @Override
    public long checkpoint(MatchingEngine engine) {
        appendsSinceSnapshot = 0;
        long index = queue.lastIndex();
        if (index < 0 || !recovered) {
            return 0;
        }
        try {
            long start = System.nanoTime();
            Path file = snapshots.write(index, symbols, lastRecordedOwners, engine);
            LOG.info("snapshot {} written in {} ms", file.getFileName(), (System.nanoTime() - start) / 1_000_000);
            snapshotCycleFile = cycleFiles.get(queue.rollCycle().toCycle(index));
        } catch (IOException | RuntimeException e) {
            // The journal alone still recovers everything: a failed snapshot costs only recovery time.
            LOG.error("could not write a snapshot; the next start replays the whole journal", e);
        }
        return index;
    }

    /** Any thread: the bytes of the journal's queue files on disk (0 if they cannot be listed). */
    public long sizeBytes() {
        File[] files = config.directory().toFile().listFiles((dir, name) -> name.endsWith(".cq4"));
        long bytes = 0;
        for (File file : files == null ? new File[0] : files) {
            bytes += file.length();
        }
        return bytes;
    }

    /** The commands recorded after the record at {@code index} (the journal's first if {@link JournalReader#NO_INDEX}). */
    long commandsAfter(long index) {
        return new JournalReader().readAfter(queue, index, new JournalReader.Visitor() {
            @Override
            public void onSymbols(long at, List<SymbolSpec> recorded) {
            }

            @Override
            public void onCommand(long at, Command command) {
            }
        });
    }

    /** The index of the journal's last record (Chronicle numbering), or a negative number when empty. */
    public long lastIndex() {
        return queue.lastIndex();
    }

    @Override
    public void close() {
        if (appender != null) {
            appender.close();
        }
        queue.close();
        if (config.retainCycles() != JournalConfig.KEEP_ALL && snapshotCycleFile != null) {
            deleteCyclesBefore(snapshotCycleFile, config.retainCycles());
        }
    }

    /**
     * Deletes the journal files older than {@code snapshotFile} but the newest {@code keep} of them. Chronicle names
     * cycle files so that their names sort in time order.
     */
    private void deleteCyclesBefore(File snapshotFile, int keep) {
        File[] files = config.directory().toFile().listFiles((dir, name) -> name.endsWith(".cq4"));
        if (files == null) {
            return;
        }
        List<File> older = Stream.of(files)
            .filter(f -> f.getName().compareTo(snapshotFile.getName()) < 0)
            .sorted((a, b) -> b.getName().compareTo(a.getName()))
            .toList();
        if (older.size() > keep) {
            try {
                Files.writeString(config.directory().resolve(HISTORY_DELETED_MARKER), "journal files before "
                    + snapshotFile.getName() + " deleted by retention; recovery needs a snapshot\n");
            } catch (IOException e) {
                LOG.warn("retention: could not write the {} marker; deleting nothing", HISTORY_DELETED_MARKER, e);
                return;
            }
        }
        for (int i = keep; i < older.size(); i++) {
            if (older.get(i).delete()) {
                LOG.info("retention: deleted journal file {} (before the snapshot's)", older.get(i).getName());
            } else {
                LOG.warn("retention: could not delete journal file {}", older.get(i));
            }
        }
    }
}
