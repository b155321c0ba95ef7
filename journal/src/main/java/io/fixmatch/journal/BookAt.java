package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.MatchingEngine;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds one symbol's book as it was at a past instant of a journal, for audits and disputes: from the newest
 * snapshot at or before the instant that reads back whole (or from the journal's start), then the journal's commands
 * up to the instant, through the same {@link MatchingEngine} the server runs, its events discarded. The engine is
 * deterministic, so this is the book the live server had then.
 *
 * <p>Read-only: the queue is opened read-only, snapshots are only read, no lock is taken. Safe on the data folder of
 * a running server: what it appends meanwhile lies after the instant and is not read, and a snapshot it deletes
 * while this reads it is passed over for an older one (or the journal's start).
 */
public final class BookAt {
    private static final Logger LOG = LoggerFactory.getLogger(BookAt.class);

    private final Path journalDirectory;
    private final EngineConfig engineConfig;
    private final List<String> configuredSessions;

    /**
     * @param journalDirectory   the journal folder ({@code data.dir/journal})
     * @param engineConfig       the engine the server ran with: its symbols and capacities (a smaller book would
     *                           reject orders the server took)
     * @param configuredSessions the configuration's sessions, naming owners where the journal has no session table
     */
    public BookAt(Path journalDirectory, EngineConfig engineConfig, List<String> configuredSessions) {
        this.journalDirectory = journalDirectory;
        this.engineConfig = engineConfig;
        this.configuredSessions = List.copyOf(configuredSessions);
    }

    /**
     * The book of {@code symbol} as of {@code at}. Throws IllegalArgumentException for a symbol the configuration
     * lacks, {@link JournalException} when the journal cannot answer (missing, empty, the instant outside it, a
     * record that cannot be read).
     */
    public PastBook rebuild(String symbol, JournalInstant at) {
        int symbolId = symbolId(symbol);
        if (!Files.isDirectory(journalDirectory)) {
            throw new JournalException("no journal at " + journalDirectory);
        }
        try (SingleChronicleQueue queue = openReadOnly()) {
            return rebuild(queue, symbolId, at);
        } catch (JournalException e) {
            throw e;
        } catch (Exception e) { // Chronicle's own errors on damaged files, some checked and undeclared: no bad argument
            throw new JournalException("cannot read the journal at " + journalDirectory + ": " + e, e);
        }
    }

    private SingleChronicleQueue openReadOnly() {
        try {
            return SingleChronicleQueueBuilder.single(journalDirectory.toFile()).readOnly(true).build();
        } catch (Exception e) { // a folder that is no queue
            throw new JournalException("cannot open the journal at " + journalDirectory + ": " + e, e);
        }
    }

    private PastBook rebuild(SingleChronicleQueue queue, int symbolId, JournalInstant at) {
        long through = at instanceof JournalInstant.AtIndex index ? checkedIndex(queue, index.index())
            : lastRecordAtOrBefore(queue, (JournalInstant.AtTime) at);
        Replay replay = startingPoint(through);
        replay.run(queue, through);
        MatchingEngine engine = replay.engine;
        SymbolSpec spec = engineConfig.symbols().get(symbolId);
        return new PastBook(spec.name(), spec.priceScale(), at, through, replay.lastCommandIndex,
            replay.lastCommandNanos, replay.snapshot, replay.startIndex, replay.replayed, engine.isHalted(symbolId),
            orders(engine, symbolId, Side.BUY, replay.commands.owners()),
            orders(engine, symbolId, Side.SELL, replay.commands.owners()));
    }

    private int symbolId(String symbol) {
        List<SymbolSpec> symbols = engineConfig.symbols();
        for (int id = 0; id < symbols.size(); id++) {
            if (symbols.get(id).name().equals(symbol)) {
                return id;
            }
        }
        throw new IllegalArgumentException("unknown symbol " + symbol + " (the configured symbols: "
            + String.join(", ", symbols.stream().map(SymbolSpec::name).toList()) + ")");
    }

    private long checkedIndex(SingleChronicleQueue queue, long index) {
        long last = queue.lastIndex();
        long first = queue.firstIndex();
        if (last < 0 || first == Long.MAX_VALUE) {
            throw new JournalException("the journal at " + journalDirectory + " holds no records");
        }
        if (index > last) {
            throw new JournalException("journal index " + JournalReader.describe(index) + " is beyond the journal's"
                + " last record " + JournalReader.describe(last));
        }
        if (index < first) {
            throw new JournalException("journal index " + JournalReader.describe(index) + " is before the journal's"
                + " first record " + JournalReader.describe(first));
        }
        return index;
    }

    /** Scans the journal from its start to the first command stamped after the time: the command before it. */
    private long lastRecordAtOrBefore(SingleChronicleQueue queue, JournalInstant.AtTime time) {
        TimeSearch search = new TimeSearch(time.epochNanos());
        new JournalReader().readAll(queue, search);
        if (search.firstCommandIndex == PastBook.NO_COMMAND) {
            throw new JournalException("the journal at " + journalDirectory + " holds no commands");
        }
        if (search.firstCommandNanos > search.limitNanos) {
            throw new JournalException(time + " is before the journal's first command ("
                + JournalDump.utc(search.firstCommandNanos) + ", record "
                + JournalReader.describe(search.firstCommandIndex) + ")");
        }
        return search.lastCommandInTime;
    }

    /** Reads the journal in order until the first command stamped after the limit. */
    private static final class TimeSearch implements JournalReader.Visitor {
        final long limitNanos;
        long lastCommandInTime = PastBook.NO_COMMAND;
        long firstCommandIndex = PastBook.NO_COMMAND;
        long firstCommandNanos;
        boolean laterCommandMet;

        TimeSearch(long limitNanos) {
            this.limitNanos = limitNanos;
        }

        @Override
        public void onSymbols(long index, List<SymbolSpec> symbols) {
            // tables carry no time; the replay checks them
        }

        @Override
        public void onCommand(long index, Command command) {
            if (firstCommandIndex == PastBook.NO_COMMAND) {
                firstCommandIndex = index;
                firstCommandNanos = command.timestampNanos();
            }
            if (command.timestampNanos() > limitNanos) {
                laterCommandMet = true;
            } else {
                lastCommandInTime = index;
            }
        }

        @Override
        public boolean hasEnough() {
            return laterCommandMet;
        }
    }

    /** A fresh engine from the newest snapshot at or before {@code through} that restores whole, or empty. */
    private Replay startingPoint(long through) {
        for (Path file : new SnapshotDirectory(journalDirectory.resolve("snapshots")).filesNewestFirst()) {
            EngineSnapshot.Header header;
            try {
                header = EngineSnapshot.readHeader(file);
            } catch (JournalException e) {
                LOG.warn("passing over snapshot {}: {}", file, e.getMessage());
                continue;
            }
            if (header.journalIndex() > through) {
                continue;
            }
            Replay replay = new Replay(header);
            replay.commands.startFrom(header); // a symbol table the configuration contradicts: refused
            try {
                EngineSnapshot.restore(file, replay.engine);
            } catch (JournalException e) { // deleted by the running server since it was listed: an older one will do
                LOG.warn("passing over snapshot {}: {}", file, e.getMessage());
                continue;
            }
            return replay;
        }
        if (Files.exists(journalDirectory.resolve(ChroniclePersistence.HISTORY_DELETED_MARKER))) {
            throw new JournalException("journal files in " + journalDirectory + " were deleted by retention and no"
                + " snapshot at or before the instant remains: the book then cannot be rebuilt");
        }
        return new Replay(null);
    }

    private MatchingEngine newEngine() {
        return new MatchingEngine(engineConfig, event -> { }); // publication discarded: only the books matter
    }

    private List<PastBook.Order> orders(MatchingEngine engine, int symbolId, Side side, List<String> owners) {
        List<String> names = owners != null ? owners : configuredSessions;
        List<PastBook.Order> orders = new ArrayList<>();
        engine.forEachRestingOrder(symbolId, side, order -> orders.add(new PastBook.Order(order.orderId(),
            order.owner(), order.owner() >= 1 && order.owner() <= names.size() ? names.get(order.owner() - 1)
                : "#" + order.owner(),
            order.clientOrderId().toString(), order.timeInForce().name(), order.price(), order.orderQuantity(),
            order.leavesQuantity(), order.cumQuantity())));
        return orders;
    }

    /** The engine being rebuilt and what the replay met on its way. */
    private final class Replay {
        final MatchingEngine engine = newEngine();
        /** Session tables are not checked: the tool names owners by the journal's own table. */
        final CheckedCommands commands = new CheckedCommands(engineConfig.symbols(), null, this::onCommand);
        final Path snapshot;
        /** The snapshot's last record (re-read for its time, not re-applied); NO_COMMAND: the journal's start. */
        final long startIndex;
        long lastCommandIndex = PastBook.NO_COMMAND;
        long lastCommandNanos;
        long replayed;

        /** From {@code snapshot}'s state, or from the journal's start if it is null. */
        Replay(EngineSnapshot.Header snapshot) {
            this.snapshot = snapshot == null ? null : snapshot.file();
            this.startIndex = snapshot == null ? PastBook.NO_COMMAND : snapshot.journalIndex();
        }

        void run(SingleChronicleQueue queue, long through) {
            new JournalReader().readRange(queue, snapshot == null ? JournalReader.NO_INDEX : startIndex, through,
                commands);
        }

        private void onCommand(long index, Command command) {
            lastCommandIndex = index;
            lastCommandNanos = command.timestampNanos();
            if (index > startIndex) { // what the snapshot holds is not applied twice (no snapshot: -1)
                engine.process(command);
                replayed++;
            }
        }
    }
}
