package io.fixmatch.it.acceptance;

import io.fixmatch.it.RawFix;
import io.fixmatch.it.RawFixClient;
import io.fixmatch.it.TestServers;
import io.fixmatch.server.FixmatchServer;
import io.fixmatch.server.WaitBounds;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs one definition against real fixmatch servers over real sockets: a fresh server (its own data folder, port 0)
 * whenever a connection opens while none is (see {@link VenueMapping}), a raw socket per client number, the steps in
 * order, and the first step that does not go as written ends the run.
 *
 * <p>Waiting: QuickFIX/J's runner waits 10 s for each expected message. Here an answer or a disconnect is awaited
 * up to {@link #ANSWER_TIMEOUT} (a failure deadline sized for a busy machine: the wait ends when the message comes); a
 * message the server sends on its own timers (a Heartbeat without TestReqID, a TestRequest) 2 x HeartBtInt longer,
 * HeartBtInt being the one of the client's last Logon.
 */
final class DefinitionRunner {
    static final Duration ANSWER_TIMEOUT = WaitBounds.ANSWER;
    private static final int DEFAULT_HEART_BT_INT = 30;

    /** How a run ended. */
    record Outcome(String definition, boolean passed, int failedLine, String failure, long millis) {
        static Outcome pass(String definition, long millis) {
            return new Outcome(definition, true, 0, null, millis);
        }

        @Override
        public String toString() {
            return definition + (passed ? ": passed" : ": fails at line " + failedLine + ": " + failure) + " ("
                + millis + " ms)";
        }
    }

    /** A step that did not go as the definition says. */
    private static final class StepFailed extends Exception {
        private final int line;

        StepFailed(AcceptanceDefinition.Step step, String what) {
            super(what, null, false, false);
            this.line = step.line();
        }
    }

    private final AcceptanceDefinition definition;
    private final Path workDirectory;
    private final Map<Integer, RawFixClient> clients = new HashMap<>();
    private final Map<Integer, Integer> heartBtInts = new HashMap<>();
    private FixmatchServer server;
    private int servers;

    DefinitionRunner(AcceptanceDefinition definition, Path workDirectory) {
        this.definition = definition;
        this.workDirectory = workDirectory;
    }

    Outcome run() throws InterruptedException {
        long start = System.nanoTime();
        try {
            for (AcceptanceDefinition.Step step : definition.steps()) {
                execute(step);
            }
            return Outcome.pass(definition.name(), elapsedMs(start));
        } catch (StepFailed e) {
            return new Outcome(definition.name(), false, e.line, e.getMessage(), elapsedMs(start));
        } catch (IOException e) {
            throw new IllegalStateException(definition.name() + ": " + e, e);
        } finally {
            closeAll();
        }
    }

    private void execute(AcceptanceDefinition.Step step) throws StepFailed, IOException, InterruptedException {
        switch (step.kind()) {
            case CONNECT -> connect(step);
            case SEND -> send(step);
            case EXPECT -> expect(step);
            case EXPECT_DISCONNECT -> {
                if (!client(step).awaitClosed(ANSWER_TIMEOUT)) {
                    throw new StepFailed(step, "the server did not disconnect within " + ANSWER_TIMEOUT
                        + unread(step));
                }
            }
        }
    }

    private void connect(AcceptanceDefinition.Step step) throws IOException, InterruptedException {
        clients.values().removeIf(client -> {
            if (client.isClosedByServer()) {
                client.close();
                return true;
            }
            return false;
        });
        if (clients.isEmpty()) {
            TestServers.closeQuietly(server);
            Path data = Files.createDirectories(workDirectory.resolve("server-" + ++servers));
            server = TestServers.start(data, 0, VenueMapping.serverOverrides());
        }
        TestServers.closeQuietly(clients.remove(step.client()));
        clients.put(step.client(), new RawFixClient(server.port(), VenueMapping.CLIENT_COMP_ID));
        heartBtInts.remove(step.client());
    }

    private void send(AcceptanceDefinition.Step step) throws StepFailed {
        byte[] bytes = OutgoingLine.bytes(step.text());
        Map<String, String> fields = ExpectedLine.fields(new String(bytes, StandardCharsets.ISO_8859_1));
        if ("A".equals(fields.get("35")) && fields.containsKey("108")) {
            heartBtInts.put(step.client(), parseOr(fields.get("108"), DEFAULT_HEART_BT_INT));
        }
        try {
            client(step).send(bytes);
        } catch (IOException e) {
            // As QuickFIX/J's runner: writing to a connection the server has closed is not itself a failure; the
            // next expectation tells.
        }
    }

    private void expect(AcceptanceDefinition.Step step) throws StepFailed, InterruptedException {
        Map<String, String> expected = ExpectedLine.fields(step.text());
        Duration timeout = ANSWER_TIMEOUT;
        if (isTimerDriven(expected)) {
            int heartBtInt = heartBtInts.getOrDefault(step.client(), DEFAULT_HEART_BT_INT);
            timeout = ANSWER_TIMEOUT.plusSeconds(2L * heartBtInt);
        }
        RawFixClient client = client(step);
        RawFix.Msg received = client.poll(timeout);
        if (received == null) {
            throw new StepFailed(step, "expected " + pretty(step.text()) + " but nothing came within " + timeout
                + (client.isClosedByServer() ? " (the server closed the connection)" : ""));
        }
        String mismatch = ExpectedLine.mismatch(step.text(), received.raw());
        if (mismatch != null) {
            throw new StepFailed(step, "expected " + pretty(step.text()) + " but received " + received + ": "
                + mismatch);
        }
    }

    /** Whether the definition waits for a message the server sends on its timers (the long runs). */
    static boolean waitsForTimers(AcceptanceDefinition definition) {
        return definition.steps().stream().anyMatch(step -> step.kind() == AcceptanceDefinition.Kind.EXPECT
            && isTimerDriven(ExpectedLine.fields(step.text())));
    }

    private static boolean isTimerDriven(Map<String, String> expected) {
        String type = expected.get("35");
        return "1".equals(type) || "0".equals(type) && !expected.containsKey("112");
    }

    private RawFixClient client(AcceptanceDefinition.Step step) throws StepFailed {
        RawFixClient client = clients.get(step.client());
        if (client == null) {
            throw new StepFailed(step, "client " + step.client() + " is not connected");
        }
        return client;
    }

    /** For a failed disconnect: what the server sent instead, if anything. */
    private String unread(AcceptanceDefinition.Step step) throws InterruptedException {
        RawFix.Msg message = clients.get(step.client()).poll(Duration.ZERO);
        return message == null ? "" : "; it sent " + message;
    }

    private void closeAll() {
        clients.values().forEach(RawFixClient::close);
        clients.clear();
        TestServers.closeQuietly(server);
        server = null;
    }

    private static String pretty(String text) {
        return text.replace('\u0001', '|');
    }

    private static int parseOr(String value, int fallback) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static long elapsedMs(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
