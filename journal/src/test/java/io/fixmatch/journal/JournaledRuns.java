package io.fixmatch.journal;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventSink;
import io.fixmatch.engine.loop.LoopConfig;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.matching.EngineStateText;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What the journal tests share: running a flow through the real journaled loop, and starting child JVMs. */
final class JournaledRuns {
    /**
     * How long a test waits for a child JVM (its ready line, its end) before it fails: a failure deadline, not a
     * sleep, sized for a busy 2-core machine where a JVM starting Chronicle takes 10 s and more.
     */
    static final Duration PROCESS_WAIT = Duration.ofSeconds(180);
    /** A test method's own bound (JUnit's {@code @Timeout}) when it starts child JVMs one after another. */
    static final long PROCESSES_TEST_SECONDS = 900;

    private static final LoopConfig LOOP = LoopConfig.defaults().withIdleStrategy("yield");

    private JournaledRuns() {
    }

    /** A runtime over a real Chronicle journal; not yet recovered. */
    static MatchingRuntime runtime(JournalConfig config) {
        return new MatchingRuntime(TestFlow.ENGINE, LOOP, ChroniclePersistence.open(config, TestFlow.SYMBOLS));
    }

    /**
     * Recovers, runs {@code count} more commands of the flow through the live loop, stops cleanly (which snapshots);
     * hands every event to {@code events}; returns the final state.
     */
    static String run(JournalConfig config, TestFlow flow, int count, EventSink events) {
        MatchingRuntime runtime = runtime(config);
        runtime.recover();
        runtime.start();
        Command command = new Command();
        for (int i = 0; i < count; i++) {
            flow.next(command);
            while (!runtime.inbound().offer(command)) {
                runtime.outbound().poll(events, 1_000);
            }
            runtime.outbound().poll(events, 1_000);
        }
        runtime.close();
        while (runtime.outbound().poll(events, 1_000) > 0) {
            // collect what the drain produced
        }
        return EngineStateText.of(runtime.engine());
    }

    static String run(JournalConfig config, TestFlow flow, int count) {
        return run(config, flow, count, event -> { });
    }

    /** Starts {@code main} in a child JVM with this JVM's module flags and classpath. */
    static Process startJava(Class<?> main, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-") || argument.startsWith("-Dchronicle")) {
                command.add(argument);
            }
        }
        command.add("-Xmx256m");
        // The root pom's fixmatch.test.childJvmFlags: a short-lived JVM on a 2-core machine (its comment says why).
        for (String flag : System.getProperty("fixmatch.test.childJvmFlags", "").trim().split("\\s+")) {
            if (!flag.isEmpty()) {
                command.add(flag);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }
}
