package io.fixmatch.server.logging;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A child process for {@link ServerLoggingTest}: the server's logging (small files, to roll often), flooded by
 * {@link #THREADS} threads each logging {@link #LINES_PER_THREAD} lines, one in {@link #WARN_EVERY} a WARN and one
 * in {@link #WARN_EVERY} an ERROR, the rest INFO; then a clean stop. The console goes nowhere.
 *
 * <pre>usage: LogFlood LOG_DIR</pre>
 */
public final class LogFlood {
    static final int THREADS = 4;
    static final int LINES_PER_THREAD = 30_000;
    static final int WARN_EVERY = 30;

    private LogFlood() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        ServerLogging.start(new LogSettings(null, "256KB", 14, "1GB", null), Path.of(args[0]));
        Logger log = LoggerFactory.getLogger("flood");
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            Thread flooder = new Thread(() -> {
                for (int i = 0; i < LINES_PER_THREAD; i++) {
                    if (i % WARN_EVERY == 0) {
                        log.warn("flood-warn {} {}", thread, i);
                    } else if (i % WARN_EVERY == 1) {
                        log.error("flood-error {} {}", thread, i);
                    } else {
                        log.info("flood-info {} {} padding the line to a realistic length of a server log line", thread,
                            i);
                    }
                }
            }, "flood-" + t);
            flooder.start();
            threads.add(flooder);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        ServerLogging.stop();
    }
}
