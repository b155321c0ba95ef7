package io.fixmatch.client;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code fixmatch-demo}: shows a running server at work. CLIENT1 and CLIENT2 log on, trade a little AAPL, cancel,
 * send a price off the tick, and every report they get is printed as it arrives.
 */
@Command(name = "fixmatch-demo",
    description = "Two FIX clients (CLIENT1, CLIENT2) trade AAPL through a running fixmatch server.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:every expected report arrived", "1:cannot log on, or reports missing", "2:bad arguments"})
public final class DemoMain implements Callable<Integer> {
    private static final long WAIT_SECONDS = 5;

    @Mixin
    private Endpoint endpoint;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    private boolean help;

    private final BlockingQueue<String> reports = new LinkedBlockingQueue<>();
    private int missing;

    public static void main(String[] args) {
        System.exit(ClientCommandLine.execute(new DemoMain(), args));
    }

    @Override
    public Integer call() throws InterruptedException {
        TraderConsole seller = console("CLIENT1");
        TraderConsole buyer = console("CLIENT2");
        try (TraderConnection sellerSession = logOn("CLIENT1", seller);
             TraderConnection buyerSession = logOn("CLIENT2", buyer)) {
            System.out.println("logged on to " + endpoint.host + ":" + endpoint.port + " as CLIENT1 and CLIENT2");

            step("CLIENT1 offers 100 AAPL at 150.10 and 200 at 150.20");
            type("CLIENT1", seller, "sell AAPL 100 150.10");
            type("CLIENT1", seller, "sell AAPL 200 150.20");
            await(2);
            step("CLIENT2 bids for 150 AAPL up to 150.20: takes 150.10, then part of 150.20");
            type("CLIENT2", buyer, "buy AAPL 150 150.20");
            await(5);
            step("CLIENT1 cancels what is left of its second order");
            type("CLIENT1", seller, "cancel 2");
            await(1);
            step("CLIENT2 sends a price off the 0.01 tick: refused");
            type("CLIENT2", buyer, "buy AAPL 10 150.105");
            await(1);
        } catch (TraderConnection.ConnectionFailure e) {
            System.err.println("fixmatch-demo: " + e.getMessage());
            return 1;
        }
        return missing == 0 ? 0 : 1;
    }

    private TraderConsole console(String name) {
        return new TraderConsole(reply -> { }, report -> reports.add(String.format("%-8s %s", name, report)),
            reason -> reports.add(String.format("%-8s session ended: %s", name, reason)));
    }

    private TraderConnection logOn(String name, TraderConsole console) throws TraderConnection.ConnectionFailure {
        TraderConnection connection = TraderConnection.open(new TraderConnection.Target(endpoint.host, endpoint.port,
            name), console);
        console.attach(connection);
        return connection;
    }

    private static void step(String text) {
        System.out.println("-- " + text);
    }

    private static void type(String name, TraderConsole console, String command) {
        System.out.println(name + "> " + command);
        console.execute(command);
    }

    /** Prints the next {@code count} reports, waiting for each a few seconds at most. */
    private void await(int count) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            String line = reports.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            if (line == null) {
                System.out.println("   (no more reports within " + WAIT_SECONDS + " s)");
                missing++;
                return;
            }
            System.out.println("   " + line);
        }
    }
}
