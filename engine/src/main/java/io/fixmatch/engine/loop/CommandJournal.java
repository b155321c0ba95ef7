package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.Command;
import org.agrona.DirectBuffer;

import java.util.function.Consumer;

/**
 * Where the matching thread records each command before acting on it, and where recovery reads them back.
 * Commands are passed in their {@code CommandCodec} form. The Chronicle Queue implementation lives in the journal
 * module; {@link #NONE} keeps nothing (tests and benchmarks of the loop without journaling).
 */
public interface CommandJournal extends AutoCloseable {

    /**
     * Replays every recorded command, oldest first, into {@code consumer} (which must not keep the command).
     * Called once, before the first {@link #append}. Returns the number of commands replayed.
     */
    long replay(Consumer<Command> consumer);

    /** Records one encoded command; when this returns, the command survives a crash of this process. */
    void append(DirectBuffer encodedCommand, int offset, int length);

    /** Flushes and releases the journal's files. */
    @Override
    void close();

    /** A journal that keeps nothing and replays nothing. */
    CommandJournal NONE = new CommandJournal() {
        @Override
        public long replay(Consumer<Command> consumer) {
            return 0;
        }

        @Override
        public void append(DirectBuffer encodedCommand, int offset, int length) {
        }

        @Override
        public void close() {
        }
    };
}
