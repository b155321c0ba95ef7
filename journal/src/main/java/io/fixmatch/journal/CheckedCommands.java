package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.config.SymbolSpec;

import java.util.List;

/**
 * Reads a journal's commands the way recovery must: every symbol table (and session table, when the caller has one)
 * the journal or a snapshot records is checked against the configured one, and a command before any symbol table is
 * refused; the commands go to a {@link Sink}. Recovery and the book-at tool both read through it, so they accept
 * exactly the same journals.
 */
final class CheckedCommands implements JournalReader.Visitor {

    /** Receives each command (reused after the call) with its journal index. */
    @FunctionalInterface
    interface Sink {
        void accept(long index, Command command);
    }

    private final List<SymbolSpec> configuredSymbols;
    /** Null: session tables are recorded (they name owners), not checked. */
    private final List<String> configuredOwners;
    private final Sink sink;
    private List<SymbolSpec> symbols;
    private List<String> owners;

    CheckedCommands(List<SymbolSpec> configuredSymbols, List<String> configuredOwners, Sink sink) {
        this.configuredSymbols = configuredSymbols;
        this.configuredOwners = configuredOwners;
        this.sink = sink;
    }

    /** The read starts after this snapshot: its tables are the ones in force. */
    void startFrom(EngineSnapshot.Header snapshot) {
        checkSymbols(snapshot.symbols(), snapshot.file().toString());
        symbols = snapshot.symbols();
        if (snapshot.owners() != null) {
            checkOwners(snapshot.owners(), snapshot.file().toString());
            owners = snapshot.owners();
        }
    }

    /** The symbol table in force at the last record read, null if none yet. */
    List<SymbolSpec> symbols() {
        return symbols;
    }

    /** The session table in force at the last record read (owner k is the k-th name), null if none recorded. */
    List<String> owners() {
        return owners;
    }

    @Override
    public void onSymbols(long index, List<SymbolSpec> recorded) {
        checkSymbols(recorded, "record " + JournalReader.describe(index));
        symbols = recorded;
    }

    @Override
    public void onOwners(long index, List<String> recorded) {
        checkOwners(recorded, "record " + JournalReader.describe(index));
        owners = recorded;
    }

    @Override
    public void onCommand(long index, Command command) {
        if (symbols == null) {
            throw new JournalException("journal record " + JournalReader.describe(index)
                + " is a command before any symbol table");
        }
        sink.accept(index, command);
    }

    private void checkSymbols(List<SymbolSpec> recorded, String where) {
        String problem = JournalFormat.incompatibility(recorded, configuredSymbols);
        if (problem != null) {
            throw new JournalException("the configured symbols do not match the journal (" + where + "): " + problem);
        }
    }

    private void checkOwners(List<String> recorded, String where) {
        if (configuredOwners == null) {
            return;
        }
        String problem = JournalFormat.ownersIncompatibility(recorded, configuredOwners);
        if (problem != null) {
            throw new JournalException("the configured sessions do not match the journal (" + where + "): " + problem);
        }
    }
}
