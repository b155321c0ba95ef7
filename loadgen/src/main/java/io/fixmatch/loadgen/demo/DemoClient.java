package io.fixmatch.loadgen.demo;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.loadgen.client.FixClient;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Shows a running server at work: CLIENT1 and CLIENT2 log on over FIX 4.4, trade a little AAPL, cancel, and every
 * report they get is printed as a line a person can read.
 *
 * <pre>usage: DemoClient [HOST] [PORT]    (default 127.0.0.1 9878)</pre>
 */
public final class DemoClient {
    private static final long WAIT_SECONDS = 5;

    private DemoClient() {
    }

    public static void main(String[] args) throws Exception {
        String host = args.length > 0 ? args[0] : "127.0.0.1";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 9878;
        Printer printer = new Printer();
        try (FixClient seller = new FixClient(host, port, "CLIENT1", "FIXMATCH", printer.as("CLIENT1"));
             FixClient buyer = new FixClient(host, port, "CLIENT2", "FIXMATCH", printer.as("CLIENT2"))) {
            seller.logon(30, WAIT_SECONDS);
            buyer.logon(30, WAIT_SECONDS);
            System.out.println("logged on to " + host + ":" + port + " as CLIENT1 and CLIENT2");

            step("CLIENT1 offers 100 AAPL at 150.10 and 200 at 150.20");
            order(seller, "S1", '2', 100, "150.10");
            order(seller, "S2", '2', 200, "150.20");
            printer.await(2);
            step("CLIENT2 bids for 150 AAPL up to 150.20: takes 150.10, then part of 150.20");
            order(buyer, "B1", '1', 150, "150.20");
            printer.await(5);
            step("CLIENT1 cancels what is left of S2");
            seller.send(MsgTypes.ORDER_CANCEL_REQUEST, w -> w.field(FixTags.CL_ORD_ID, "S3")
                .field(FixTags.ORIG_CL_ORD_ID, "S2").field(FixTags.SYMBOL, "AAPL").field(FixTags.SIDE, '2')
                .timestamp(FixTags.TRANSACT_TIME, System.currentTimeMillis() * 1_000_000L));
            printer.await(1);
            step("CLIENT2 sends a price off the 0.01 tick: refused");
            order(buyer, "B2", '1', 10, "150.105");
            printer.await(1);
            seller.logout(WAIT_SECONDS);
            buyer.logout(WAIT_SECONDS);
        }
        if (printer.problems > 0) {
            System.exit(1);
        }
    }

    private static void step(String text) {
        System.out.println("-- " + text);
    }

    private static void order(FixClient client, String clOrdId, char side, long quantity, String price) {
        client.send(MsgTypes.NEW_ORDER_SINGLE, w -> w.field(FixTags.CL_ORD_ID, clOrdId).field(FixTags.SYMBOL, "AAPL")
            .field(FixTags.SIDE, side).field(FixTags.ORDER_QTY, quantity).field(FixTags.ORD_TYPE, '2')
            .field(FixTags.PRICE, price).field(FixTags.TIME_IN_FORCE, '0')
            .timestamp(FixTags.TRANSACT_TIME, System.currentTimeMillis() * 1_000_000L));
    }

    /** Prints every report as one readable line and lets the demo wait for the ones it expects. */
    private static final class Printer {
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private volatile int problems;

        FixClient.Listener as(String name) {
            return new FixClient.Listener() {
                @Override
                public void onMessage(FixMessage m, long receivedNanos) {
                    lines.add(String.format("%-8s %s", name, describe(m)));
                }

                @Override
                public void onProblem(String description) {
                    problems++;
                    lines.add(String.format("%-8s PROBLEM: %s", name, description));
                }
            };
        }

        void await(int reports) throws InterruptedException {
            for (int i = 0; i < reports; i++) {
                String line = lines.poll(WAIT_SECONDS, TimeUnit.SECONDS);
                if (line == null) {
                    System.out.println("   (no more reports within " + WAIT_SECONDS + " s)");
                    problems++;
                    return;
                }
                System.out.println("   " + line);
            }
        }

        private static String describe(FixMessage m) {
            if (m.msgType() == MsgTypes.ORDER_CANCEL_REJECT) {
                return "CANCEL REJECTED " + m.stringValue(FixTags.ORIG_CL_ORD_ID) + ": " + m.stringValue(FixTags.TEXT);
            }
            if (m.msgType() != MsgTypes.EXECUTION_REPORT) {
                return "35=" + MsgTypes.toString(m.msgType()) + " " + m.stringValue(FixTags.TEXT);
            }
            String what = switch (m.byteValue(FixTags.EXEC_TYPE)) {
                case '0' -> "NEW     ";
                case 'F' -> "TRADE   ";
                case '4' -> "CANCELED";
                case '5' -> "REPLACED";
                case '8' -> "REJECTED";
                default -> "ExecType " + (char) m.byteValue(FixTags.EXEC_TYPE);
            };
            StringBuilder line = new StringBuilder(what).append(' ')
                .append(m.byteValue(FixTags.SIDE) == '1' ? "buy  " : "sell ")
                .append(m.stringValue(FixTags.SYMBOL)).append(" ClOrdID=").append(m.stringValue(FixTags.CL_ORD_ID))
                .append(" OrderID=").append(m.stringValue(FixTags.ORDER_ID));
            if (m.byteValue(FixTags.EXEC_TYPE) == 'F') {
                line.append("  ").append(m.stringValue(FixTags.LAST_QTY)).append(" @ ")
                    .append(m.stringValue(FixTags.LAST_PX));
            } else if (m.has(FixTags.PRICE)) {
                line.append("  ").append(m.stringValue(FixTags.ORDER_QTY)).append(" @ ")
                    .append(m.stringValue(FixTags.PRICE));
            }
            line.append("  leaves=").append(m.stringValue(FixTags.LEAVES_QTY)).append(" filled=")
                .append(m.stringValue(FixTags.CUM_QTY)).append(" avg=").append(m.stringValue(FixTags.AVG_PX));
            if (m.has(FixTags.TEXT)) {
                line.append("  (").append(m.stringValue(FixTags.TEXT)).append(')');
            }
            return line.toString();
        }
    }
}
