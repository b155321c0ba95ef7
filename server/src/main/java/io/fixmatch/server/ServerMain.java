package io.fixmatch.server;

import io.fixmatch.journal.JournalException;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code fixmatch-server [--config FILE]}: runs the server in the foreground until SIGTERM or Ctrl-C, then shuts
 * down cleanly and exits 0. Exits 2 on bad arguments or configuration, 1 when it cannot start (port taken,
 * unreadable journal).
 */
public final class ServerMain {
    private ServerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path configFile = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--help", "-h" -> {
                    System.out.println(usage());
                    return;
                }
                case "--config" -> {
                    if (i + 1 == args.length) {
                        fail(2, "--config needs a file\n" + usage());
                    }
                    configFile = Path.of(args[++i]);
                }
                default -> fail(2, "unknown option " + args[i] + "\n" + usage());
            }
        }
        ServerConfig config = null;
        try {
            if (configFile == null) {
                config = ServerConfig.embedded();
            } else if (!Files.isReadable(configFile)) {
                fail(2, "cannot read config file " + configFile);
            } else {
                config = ServerConfig.load(configFile);
            }
        } catch (Exception e) {
            fail(2, "bad configuration: " + e.getMessage());
        }
        FixmatchServer server = null;
        try {
            server = FixmatchServer.start(config);
        } catch (JournalException e) {
            fail(1, "cannot start: unreadable journal: " + e.getMessage());
        } catch (Exception e) {
            fail(1, "cannot start: " + e);
        }
        FixmatchServer running = server;
        // SIGTERM and Ctrl-C: a clean stop and exit status 0 (the JVM's default would exit 143 / 130).
        SignalHandler stop = signal -> {
            running.close();
            System.exit(0);
        };
        Signal.handle(new Signal("TERM"), stop);
        Signal.handle(new Signal("INT"), stop);
        Runtime.getRuntime().addShutdownHook(new Thread(running::close, "shutdown"));
        running.awaitStop();
    }

    private static String usage() {
        return """
            usage: fixmatch-server [--config FILE] [--help]
              Runs the fixmatch FIX 4.4 matching server in the foreground; SIGTERM or Ctrl-C stops it cleanly.
              --config FILE  use this properties file instead of the embedded defaults
                             (see config/fixmatch.properties for every key and its default)
              --help         this text
            Defaults: FIX 4.4 on 127.0.0.1:9878, CompID FIXMATCH, sessions CLIENT1, CLIENT2, LOADGEN,
            journal and session state under ./data""";
    }

    private static void fail(int status, String message) {
        System.err.println("fixmatch-server: " + message);
        System.exit(status);
    }
}
