package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.loop.LoopConfig;
import io.fixmatch.engine.loop.MatchingRuntime;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The child process of {@link CrashRecoveryTest}: recovers from the journal, then feeds {@link TestFlow} (from
 * where the journal ends) through the journaled loop forever, appending the text of every event it receives from
 * the outbound ring to a file, until it is killed.
 *
 * <pre>args: JOURNAL_DIR PUBLISHED_FILE SEED</pre>
 */
public final class CrashWorker {
    private CrashWorker() {
    }

    public static void main(String[] args) throws IOException {
        Path journalDir = Path.of(args[0]);
        Path published = Path.of(args[1]);
        long seed = Long.parseLong(args[2]);

        MatchingRuntime runtime = new MatchingRuntime(TestFlow.ENGINE,
            LoopConfig.defaults().withIdleStrategy("yield"),
            ChroniclePersistence.open(JournalConfig.at(journalDir), TestFlow.SYMBOLS));
        long recovered = runtime.recover();
        TestFlow flow = new TestFlow(seed);
        Command command = new Command();
        for (long i = 0; i < recovered; i++) {
            flow.next(command);
        }
        runtime.start();
        System.out.println("READY " + recovered);
        System.out.flush();

        try (OutputStream out = new FileOutputStream(published.toFile(), true)) {
            StringBuilder lines = new StringBuilder();
            while (true) {
                flow.next(command);
                while (!runtime.inbound().offer(command)) {
                    Thread.onSpinWait();
                }
                lines.setLength(0);
                runtime.outbound().poll(event -> lines.append(event).append('\n'), 10_000);
                if (lines.length() > 0) {
                    // One write per batch of whole lines: a kill never leaves half an event in the file.
                    out.write(lines.toString().getBytes(StandardCharsets.US_ASCII));
                }
            }
        }
    }
}
