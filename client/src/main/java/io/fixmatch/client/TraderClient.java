package io.fixmatch.client;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * {@code fixmatch-client}: a trader's terminal. Logs on to a fixmatch server as one session, reads commands from the
 * terminal ({@code buy AAPL 100 10.00}, {@code cancel 1}, ... : {@code help}), prints the server's reports as they
 * arrive.
 */
@Command(name = "fixmatch-client", sortOptions = false,
    description = {"A trader's terminal on FIX 4.4: type orders, see the server's reports as they arrive.",
        "Commands, one a line ('help' lists them): buy, sell, cancel, replace, status, orders, quit. Each start resets "
            + "the session's sequence numbers (ResetSeqNumFlag), so every run starts afresh."},
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
        "0:quit, or the end of the input, and logged out",
        "1:cannot connect or log on (the reason is printed), or the server ended the session",
        "2:bad arguments"})
public final class TraderClient implements Callable<Integer> {
    @Mixin
    private Endpoint endpoint;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    private boolean help;

    @Option(names = "--sender", defaultValue = "CLIENT1", paramLabel = "ID",
        description = "our SenderCompID, one of the server's sessions (default: ${DEFAULT-VALUE})")
    private String sender;

    @Option(names = "--target", defaultValue = "FIXMATCH", paramLabel = "ID",
        description = "the server's CompID (default: ${DEFAULT-VALUE})")
    private String target;

    @Option(names = "--username", paramLabel = "NAME", description = "Username (553) at Logon, if the session has one")
    private String username;

    @Option(names = "--password", paramLabel = "SECRET", description = "Password (554) at Logon, if the session has one")
    private String password;

    private final PrintStream out = System.out;

    public static void main(String[] args) {
        System.exit(ClientCommandLine.execute(new TraderClient(), args));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        TraderConsole console = new TraderConsole(this::print, this::print, reason -> {
            System.err.println("fixmatch-client: " + reason);
            System.exit(1);
        });
        TraderConnection connection;
        try {
            connection = TraderConnection.open(new TraderConnection.Target(endpoint.host, endpoint.port, sender,
                target, username, password, 30), console);
        } catch (TraderConnection.ConnectionFailure e) {
            System.err.println("fixmatch-client: " + e.getMessage());
            return 1;
        }
        console.attach(connection);
        print("logged on to " + endpoint.host + ":" + endpoint.port + " as " + sender + "; type help for the commands");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null && console.execute(line); line = in.readLine()) {
            // each line is one command
        }
        if (!console.awaitAnswers(3_000)) {
            print("(some requests had no answer yet)");
        }
        connection.close();
        print("logged out");
        return 0;
    }

    /** Replies and reports come from two threads: one line at a time. */
    private synchronized void print(String line) {
        out.println(line);
    }
}
