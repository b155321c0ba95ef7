package io.fixmatch.it.acceptance;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * QuickFIX/J's 65 FIX 4.4 server acceptance definitions (src/test/resources/acceptance/fix44) run against real
 * fixmatch servers by our own runner ({@link DefinitionRunner}, mapping in {@link VenueMapping}). One dynamic test
 * per definition: a definition that is not in {@link KnownFailures} must pass; one that is must still fail, at the
 * listed line, so that the list stays the true work order (a fixed one must be taken off it).
 *
 * <p>The definitions run {@link #PARALLEL_RUNS} at a time, each with its own servers: most of a run is waiting on
 * the network or on the session timers (two definitions wait for heartbeats, of a 3 s interval: {@link VenueMapping}).
 */
class AcceptanceSuiteTest {
    static final String DEFINITIONS = "acceptance/fix44";
    private static final int PARALLEL_RUNS = 4;

    @TempDir
    Path work;

    @TestFactory
    Stream<DynamicTest> definitions() throws Exception {
        List<AcceptanceDefinition> definitions = loadAll();
        assertEquals(65, definitions.size(), "QuickFIX/J's FIX 4.4 server definitions");
        for (String listed : KnownFailures.ALL.keySet()) {
            assertTrue(definitions.stream().anyMatch(d -> d.name().equals(listed)), "unknown definition " + listed);
        }
        List<DefinitionRunner.Outcome> outcomes = runAll(definitions);
        long passed = outcomes.stream().filter(DefinitionRunner.Outcome::passed).count();
        System.out.printf("acceptance: %d of %d definitions pass%n", passed, outcomes.size());
        outcomes.forEach(outcome -> System.out.println("acceptance: " + outcome));
        return outcomes.stream().map(outcome -> DynamicTest.dynamicTest(outcome.definition(), () -> check(outcome)));
    }

    private static void check(DefinitionRunner.Outcome outcome) {
        KnownFailures.KnownFailure known = KnownFailures.ALL.get(outcome.definition());
        if (known == null) {
            if (!outcome.passed()) {
                fail(outcome.definition() + " fails at line " + outcome.failedLine() + ": " + outcome.failure());
            }
            return;
        }
        if (outcome.passed()) {
            if (known.kind() == KnownFailures.Kind.RACY) {
                return; // its wrong answer came late this time; the fix makes it pass every time
            }
            fail(outcome.definition() + " passes now: take it off KnownFailures");
        }
        assertEquals(known.line(), outcome.failedLine(), outcome.definition() + " fails elsewhere than listed: "
            + outcome.failure());
    }

    private List<DefinitionRunner.Outcome> runAll(List<AcceptanceDefinition> definitions)
        throws InterruptedException, ExecutionException {
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL_RUNS);
        try {
            // The long runs (waiting for the server's timers) first, so that the others run beside them.
            Map<AcceptanceDefinition, Future<DefinitionRunner.Outcome>> futures = new HashMap<>();
            for (AcceptanceDefinition definition : definitions.stream()
                .sorted(Comparator.comparing(definition -> !DefinitionRunner.waitsForTimers(definition))).toList()) {
                Path folder = work.resolve(definition.name());
                futures.put(definition, pool.submit(() -> new DefinitionRunner(definition, folder).run()));
            }
            List<DefinitionRunner.Outcome> outcomes = new ArrayList<>();
            for (AcceptanceDefinition definition : definitions) {
                outcomes.add(futures.get(definition).get());
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }

    static List<AcceptanceDefinition> loadAll() throws IOException, URISyntaxException {
        URL folder = AcceptanceSuiteTest.class.getClassLoader().getResource(DEFINITIONS);
        if (folder == null) {
            throw new IllegalStateException(DEFINITIONS + " missing from the test classpath");
        }
        List<AcceptanceDefinition> definitions = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".def")).sorted().toList()) {
                try (InputStream in = Files.newInputStream(file)) {
                    definitions.add(AcceptanceDefinition.read(file.getFileName().toString(), in));
                }
            }
        }
        return definitions;
    }
}
