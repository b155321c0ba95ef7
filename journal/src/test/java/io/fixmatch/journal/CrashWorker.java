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
 * the outbound ring to a file, until it is killed. With {@code auctions}, {@link AuctionFlow} instead, stamped by a
 * clock that moves {@link AuctionFlow#CLOCK_STEP_NANOS} per command, and a line on standard output whenever symbol 0
 * enters a call ({@code CALL}) or leaves one ({@code UNCROSSED}), for the test to kill it then.
 *
 * <pre>args: JOURNAL_DIR PUBLISHED_FILE SEED [auctions]</pre>
 */
public final class CrashWorker {
    private CrashWorker() {
    }

    public static void main(String[] args) throws IOException {
        Path journalDir = Path.of(args[0]);
        Path published = Path.of(args[1]);
        long seed = Long.parseLong(args[2]);
        boolean auctions = args.length > 3 && args[3].equals("auctions");

        long[] now = {AuctionFlow.START_NANOS};
        MatchingRuntime runtime = auctions
            ? new MatchingRuntime(TestFlow.ENGINE, LoopConfig.defaults().withIdleStrategy("yield"),
                ChroniclePersistence.open(JournalConfig.at(journalDir), TestFlow.SYMBOLS), 1, owner -> 0,
                () -> now[0] += AuctionFlow.CLOCK_STEP_NANOS)
            : new MatchingRuntime(TestFlow.ENGINE, LoopConfig.defaults().withIdleStrategy("yield"),
                ChroniclePersistence.open(JournalConfig.at(journalDir), TestFlow.SYMBOLS));
        long recovered = runtime.recover();
        now[0] = Math.max(now[0], runtime.engine().lastCommandNanos());
        TestFlow flow = new TestFlow(seed);
        AuctionFlow auctionFlow = new AuctionFlow(seed);
        Command command = new Command();
        for (long i = 0; i < recovered; i++) {
            if (auctions) {
                auctionFlow.next(command);
            } else {
                flow.next(command);
            }
        }
        runtime.start();
        System.out.println("READY " + recovered);
        System.out.flush();
        boolean inCall = runtime.view().phase(0).isCall();

        try (OutputStream out = new FileOutputStream(published.toFile(), true)) {
            StringBuilder lines = new StringBuilder();
            while (true) {
                if (auctions) {
                    auctionFlow.next(command);
                } else {
                    flow.next(command);
                }
                while (!runtime.inbound().offer(command)) {
                    Thread.onSpinWait();
                }
                if (auctions && runtime.view().phase(0).isCall() != inCall) {
                    inCall = !inCall;
                    System.out.println(inCall ? "CALL" : "UNCROSSED");
                    System.out.flush();
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
