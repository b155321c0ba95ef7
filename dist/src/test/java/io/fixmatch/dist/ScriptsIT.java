package io.fixmatch.dist;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The repository's scripts, as a person runs them from anywhere: server.sh reads config/fixmatch.properties at
 * start (an edit there builds nothing) and resolves paths from where the user stands, as book-at.sh does; demo.sh
 * starts a throw-away server on the port it is given; loadgen.sh --server-port runs its own server there; the build
 * shows progress.
 */
class ScriptsIT {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = Processes.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void serverShReadsTheConfigFileAndTakesPathsFromWhereTheUserStands() throws Exception {
        try (Processes processes = new Processes(dir)) {
            Process server = processes.start(dir, Map.of("FIXMATCH_JAVA_OPTS", Processes.SMALL_JVM,
                    "FIXMATCH_ENGINE_MAX_ORDERS", "10000"),
                Processes.REPOSITORY.resolve("scripts/server.sh").toString(),
                "--port", "0", "--admin-port", "0", "--data", "here");
            processes.await(server, "fixmatch ready");
            assertTrue(processes.output(server).contains("data " + dir.resolve("here") + ", logs "
                + dir.resolve("here/logs") + ", config " + Processes.REPOSITORY.resolve("config/fixmatch.properties")),
                processes.output(server));
            server.destroy();
            assertEquals(0, processes.exitStatus(server), processes.output(server));
            assertTrue(Files.isDirectory(dir.resolve("here/journal")));

            Process book = processes.start(dir, Map.of("FIXMATCH_ENGINE_MAX_ORDERS", "10000"),
                Processes.REPOSITORY.resolve("scripts/book-at.sh").toString(), "AAPL", "--at", "2026-11-23T14:03:07Z",
                "--data", "here");
            assertEquals(1, processes.exitStatus(book), processes.output(book));
            assertEquals("fixmatch-book-at: the journal at " + dir.resolve("here/journal") + " holds no commands\n",
                processes.output(book), "--data taken from where the user stands");
        }
    }

    /**
     * The client tools started with the server, as a script or an operator does (issue 21): the load generator
     * started before it waits (retrying until the server answers its Logon), the terminal started as the server logs
     * its first line connects while it starts; both are served once it is ready: the terminal's order is
     * acknowledged, the load run has no errors.
     */
    @Test
    @Timeout(value = Processes.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void clientAndLoadgenStartedWithTheServerAreServedOnceItIsReady() throws Exception {
        int port = Processes.freePort();
        try (Processes processes = new Processes(dir)) {
            Process loadgen = processes.start(Processes.REPOSITORY, Map.of("LOADGEN_JAVA_OPTS", Processes.SMALL_JVM),
                "scripts/loadgen.sh", "--port", Integer.toString(port), "--rate", "300", "--duration", "1",
                "--warmup", "0", "--timeout", "180", "--out", dir.resolve("report").toString());
            processes.await(loadgen, "waiting for the server at 127.0.0.1:" + port);
            Process server = processes.start(dir, Map.of("FIXMATCH_JAVA_OPTS", Processes.SMALL_JVM,
                    "FIXMATCH_ENGINE_MAX_ORDERS", "20000", "FIXMATCH_ENGINE_MAX_PRICE_LEVELS", "20000"),
                Processes.REPOSITORY.resolve("scripts/server.sh").toString(), "--port", Integer.toString(port),
                "--admin-port", "0", "--data", "starting");
            processes.await(server, "starting: FIX");
            Process client = processes.start(Processes.REPOSITORY, Map.of(), "scripts/client.sh", "--port",
                Integer.toString(port), "--sender", "CLIENT2");
            client.getOutputStream().write("buy AAPL 10 1.00\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            client.getOutputStream().close();

            assertEquals(0, processes.exitStatus(client), processes.output(client));
            assertTrue(processes.output(client).contains("order 1 NEW"), processes.output(client));
            int status = processes.exitStatus(loadgen); // a 1 s run may be judged FAIL (3) or INVALID (4), not 1
            assertTrue(status == 0 || status == 3 || status == 4, "exit " + status + ": " + processes.output(loadgen));
            server.destroy();
            assertEquals(0, processes.exitStatus(server), processes.output(server));
        }
    }

    @Test
    @Timeout(value = Processes.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void demoStartsAThrowAwayServerOnTheFreePortItIsGiven() throws Exception {
        int port = Processes.freePort();
        try (Processes processes = new Processes(dir)) {
            Process demo = processes.start(Processes.REPOSITORY, Map.of(), "scripts/demo.sh", "--port",
                Integer.toString(port));
            assertEquals(0, processes.exitStatus(demo), processes.output(demo));
            String output = processes.output(demo);
            assertTrue(output.contains("starting a server on 127.0.0.1:" + port), output);
            assertTrue(output.contains("fixmatch ready: FIX 4.4 on 127.0.0.1:" + port), output);
            assertTrue(output.contains("CLIENT2  order 2 REJECTED: "), output);

            Process wrong = processes.start(Processes.REPOSITORY, Map.of(), "scripts/demo.sh", "--prot", "1");
            assertEquals(2, processes.exitStatus(wrong), processes.output(wrong));
        }
    }

    @Test
    @Timeout(value = Processes.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void loadgenRunsItsOwnServerOnTheServerPort() throws Exception {
        int port = Processes.freePort();
        Path out = dir.resolve("report");
        try (Processes processes = new Processes(dir)) {
            Process loadgen = processes.start(Processes.REPOSITORY, Map.of(
                    "SERVER_JAVA_OPTS", Processes.SMALL_JVM, "LOADGEN_JAVA_OPTS", Processes.SMALL_JVM,
                    "SERVER_PROPERTIES", "engine.maxOrders=20000 engine.maxPriceLevels=20000"),
                "scripts/loadgen.sh", "--server-port", Integer.toString(port), "--rate", "300", "--duration", "1",
                "--warmup", "0", "--out", out.toString());
            // The release gate may judge a one-second run on a cold server FAIL (3) or INVALID (4): this test is about
            // the script starting its own server on the given port, and errors (1) or bad options (2) still fail it.
            int status = processes.exitStatus(loadgen);
            assertTrue(status == 0 || status == 3 || status == 4, "exit " + status + ": " + processes.output(loadgen));
            assertTrue(Files.readString(out.resolve("server/server.log"))
                .contains("fixmatch ready: FIX 4.4 on 127.0.0.1:" + port), "its own server on the port given");
            assertTrue(Files.isRegularFile(out.resolve("summary.json")));
        }
    }

    /**
     * build_if_needed and dist.sh, in a copy of the scripts over a small tree, with a Maven that only records how
     * it was called and prints what Maven prints.
     */
    @Test
    @Timeout(value = Processes.TEST_SECONDS, unit = TimeUnit.SECONDS)
    void onlySourceChangesBuildAndTheBuildShowsItsProgress() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("tree"));
        Files.createDirectories(tree.resolve("scripts/lib"));
        for (String script : List.of("scripts/lib/java.sh", "scripts/lib/runtime.sh", "scripts/dist.sh")) {
            Files.copy(Processes.REPOSITORY.resolve(script), tree.resolve(script));
        }
        Path source = write(tree.resolve("server/src/main/java/Server.java"), "class Server {}", 1_000);
        write(tree.resolve("pom.xml"), "<project/>", 1_000);
        write(tree.resolve("server/pom.xml"), "<project/>", 1_000);
        Path jar = write(tree.resolve("server/target/server.jar"), "jar", 2_000);
        Path config = write(tree.resolve("config/fixmatch.properties"), "fix.port=9999", 3_000);
        Path calls = dir.resolve("maven-calls");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        write(bin.resolve("mvn"), String.join("\n", "#!/usr/bin/env bash",
            "echo \"$*\" >> " + calls,
            "echo '[INFO] Scanning for projects...'",
            "echo '[INFO] Building fixmatch-server 0.1.0-SNAPSHOT                [1/1]'",
            "if [ -n \"${MAVEN_FAILS:-}\" ]; then echo '[ERROR] COMPILATION ERROR: boom'; exit 1; fi",
            "case \"$*\" in *'-pl dist'*) mkdir -p dist/target && : > dist/target/fixmatch-9.9.tar.gz ;; esac",
            "echo '[INFO] BUILD SUCCESS'", ""), 0).toFile().setExecutable(true);
        String path = bin + ":" + System.getenv("PATH");
        String buildServer = ". scripts/lib/java.sh && build_if_needed server server/target/server.jar && echo ok";
        Map<String, String> maven = Map.of("PATH", path, "FIXMATCH_SKIP_BUILD", "");

        try (Processes processes = new Processes(dir)) {
            Process configEdited = processes.start(tree, maven, "-c", buildServer);
            assertEquals(0, processes.exitStatus(configEdited), processes.output(configEdited));
            assertEquals("ok\n", processes.output(configEdited), "a config edit builds nothing");
            assertFalse(Files.exists(calls));
            assertTrue(Files.getLastModifiedTime(config).compareTo(Files.getLastModifiedTime(jar)) > 0);

            Files.setLastModifiedTime(source, FileTime.from(Instant.now()));
            Process sourceEdited = processes.start(tree, maven, "-c", buildServer);
            assertEquals(0, processes.exitStatus(sourceEdited), processes.output(sourceEdited));
            String output = processes.output(sourceEdited);
            assertTrue(output.startsWith("building server with Maven"), output);
            assertTrue(output.contains("\n  building fixmatch-server 0.1.0-SNAPSHOT                [1/1]\n"), output);
            assertTrue(output.endsWith("built server\nok\n"), output);
            assertFalse(output.contains("Scanning"), "only the progress lines: " + output);
            assertEquals("-B -ntp -Dstyle.color=never -pl server -am -DskipTests package\n", Files.readString(calls));
            assertTrue(Files.getLastModifiedTime(jar).compareTo(Files.getLastModifiedTime(source)) >= 0,
                "the jar is marked fresh");

            Files.setLastModifiedTime(source, FileTime.from(Instant.now().plusSeconds(5)));
            Process failing = processes.start(tree, Map.of("PATH", path, "FIXMATCH_SKIP_BUILD", "", "MAVEN_FAILS", "1"),
                "-c", buildServer);
            assertEquals(1, processes.exitStatus(failing), processes.output(failing));
            assertTrue(processes.output(failing).contains("[ERROR] COMPILATION ERROR: boom\nthe build failed"),
                processes.output(failing));

            Process skipped = processes.start(tree, Map.of("PATH", path), "-c", buildServer);
            assertEquals(1, processes.exitStatus(skipped), processes.output(skipped));
            assertTrue(processes.output(skipped).contains("FIXMATCH_SKIP_BUILD is set"), processes.output(skipped));

            Process dist = processes.start(tree, maven, "scripts/dist.sh", "-o");
            assertEquals(0, processes.exitStatus(dist), processes.output(dist));
            List<String> lines = processes.output(dist).lines().toList();
            assertEquals(tree.resolve("dist/target/fixmatch-9.9.tar.gz").toString(), lines.get(lines.size() - 1));
        }
    }

    private static Path write(Path file, String text, long ageSeconds) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(10_000 - ageSeconds)));
        return file;
    }
}
