package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.matching.MatchingEngine;
import org.agrona.DirectBuffer;

import java.util.function.Consumer;

/**
 * What makes the engine's state survive a restart: the journal of every command, appended by the matching thread
 * before it acts on the command, and snapshots of the books ({@link #checkpoint}), from which recovery starts before
 * replaying the journal's tail. Commands are passed in their {@code CommandCodec} form. The Chronicle Queue
 * implementation lives in the journal module; {@link #NONE} keeps nothing (tests and benchmarks of the loop).
 */
public interface EnginePersistence extends AutoCloseable {

    /**
     * Rebuilds a fresh engine's state: from the latest snapshot if there is one, then every command recorded after
     * it. Called once, before the first {@link #append}. Returns the number of commands replayed.
     */
    default long recoverInto(MatchingEngine engine) {
        return recoverInto(engine, Long.MAX_VALUE);
    }

    /**
     * As {@link #recoverInto(MatchingEngine)}, starting from a snapshot no later than journal position
     * {@code latestSnapshot}: the events of every command after it are re-derived by the replay, so a caller that
     * needs some of them (reports its stores lack) bounds the snapshot by what its stores hold.
     */
    long recoverInto(MatchingEngine engine, long latestSnapshot);

    /**
     * Replays every recorded command from the journal's beginning, ignoring snapshots, into {@code consumer} (which
     * must not keep the command): for audits and for tests that compare a full replay with a recovery.
     */
    long replay(Consumer<Command> consumer);

    /**
     * Records one encoded command; when this returns, the command survives a crash of this process. Returns the
     * command's journal position: positive, growing with every append, and the same position recovery gives the
     * command when it replays it ({@code Command#journalPosition}); its events carry it.
     */
    long append(DirectBuffer encodedCommand, int offset, int length);

    /**
     * Called on the matching thread when it stops, after the last command: may snapshot the engine so the next start
     * recovers quickly (and may then drop journal files the snapshot makes unnecessary). Returns the journal position
     * of the last record (what the engine's state now covers; 0 if none).
     */
    long checkpoint(MatchingEngine engine);

    /**
     * Asked by the matching thread after each journaled command: whether to {@link #checkpoint} now (periodic
     * snapshots, so that recovery after a crash replays a bounded tail).
     */
    default boolean snapshotDue() {
        return false;
    }

    /** Flushes and releases the files. */
    @Override
    void close();

    /** Keeps nothing and replays nothing. */
    EnginePersistence NONE = new EnginePersistence() {
        @Override
        public long recoverInto(MatchingEngine engine, long latestSnapshot) {
            return 0;
        }

        @Override
        public long replay(Consumer<Command> consumer) {
            return 0;
        }

        private long appended;

        @Override
        public long append(DirectBuffer encodedCommand, int offset, int length) {
            return ++appended;
        }

        @Override
        public long checkpoint(MatchingEngine engine) {
            return appended;
        }

        @Override
        public void close() {
        }
    };
}
