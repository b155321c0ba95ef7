package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.codec.CommandCodec;
import io.fixmatch.engine.loop.EnginePersistence;
import io.fixmatch.engine.matching.MatchingEngine;
import org.agrona.DirectBuffer;

import java.util.function.Consumer;

/**
 * A real journal (the Chronicle one) with a look at every append: before the command is written, {@code beforeAppend}
 * sees it decoded (timestamp included) on the matching thread, and may throw to make the append fail as a full
 * disk would. For the tests of what the matching loop does around the journal; no mocking.
 */
final class ObservedJournal implements EnginePersistence {
    private final EnginePersistence journal;
    private final Consumer<Command> beforeAppend;

    ObservedJournal(EnginePersistence journal, Consumer<Command> beforeAppend) {
        this.journal = journal;
        this.beforeAppend = beforeAppend;
    }

    @Override
    public long recoverInto(MatchingEngine engine, long latestSnapshot) {
        return journal.recoverInto(engine, latestSnapshot);
    }

    @Override
    public long replay(Consumer<Command> consumer) {
        return journal.replay(consumer);
    }

    @Override
    public long append(DirectBuffer encodedCommand, int offset, int length) {
        Command command = new Command();
        if (!CommandCodec.decode(encodedCommand, offset, length, command)) {
            throw new AssertionError("the loop appended an undecodable command");
        }
        beforeAppend.accept(command);
        return journal.append(encodedCommand, offset, length);
    }

    @Override
    public boolean snapshotDue() {
        return journal.snapshotDue();
    }

    @Override
    public long checkpoint(MatchingEngine engine) {
        return journal.checkpoint(engine);
    }

    @Override
    public void close() {
        journal.close();
    }
}
