package io.fixmatch.client;

import quickfix.Message;
import quickfix.field.AvgPx;
import quickfix.field.ClOrdID;
import quickfix.field.CumQty;
import quickfix.field.CxlRejResponseTo;
import quickfix.field.ExecType;
import quickfix.field.LastPx;
import quickfix.field.LastQty;
import quickfix.field.LeavesQty;
import quickfix.field.MsgType;
import quickfix.field.OrdStatus;
import quickfix.field.OrderID;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.RefTagID;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.Text;
import quickfix.field.TimeInForce;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A trader's commands, one per line, and the server's reports as lines a person reads. Replies to commands go to
 * one printer, reports (as they arrive, on QuickFIX/J's thread) to another.
 */
final class TraderConsole implements TraderConnection.Listener {
    static final String HELP = String.join("\n",
        "commands:",
        "  buy SYMBOL QTY PRICE [day|gtc|ioc|fok]   a limit order (PRICE 'market': a market order)",
        "  sell SYMBOL QTY PRICE [day|gtc|ioc|fok]",
        "  cancel N                                cancel order N (the number shown when it was sent)",
        "  replace N QTY PRICE                     new total quantity and price for order N",
        "  status N                                ask the server for order N's state",
        "  orders                                  the orders sent from this terminal",
        "  help                                    this text",
        "  quit                                    log out and leave (so does the end of the input)");
    private static final Map<String, Character> TIME_IN_FORCE = Map.of("day", TimeInForce.DAY,
        "gtc", TimeInForce.GOOD_TILL_CANCEL, "ioc", TimeInForce.IMMEDIATE_OR_CANCEL, "fok", TimeInForce.FILL_OR_KILL);
    private static final Map<Character, String> ORDER_STATUS = Map.of(OrdStatus.NEW, "NEW",
        OrdStatus.PARTIALLY_FILLED, "PARTIALLY FILLED", OrdStatus.FILLED, "FILLED", OrdStatus.CANCELED, "CANCELED",
        OrdStatus.REJECTED, "REJECTED", OrdStatus.REPLACED, "REPLACED", OrdStatus.EXPIRED, "EXPIRED");

    private final TraderOrders orders = new TraderOrders();
    private final Consumer<String> replies;
    private final Consumer<String> reports;
    private final Consumer<String> onSessionEnded;
    private TraderConnection connection;

    TraderConsole(Consumer<String> replies, Consumer<String> reports, Consumer<String> onSessionEnded) {
        this.replies = replies;
        this.reports = reports;
        this.onSessionEnded = onSessionEnded;
    }

    /** The session the commands go to; the console is its listener. */
    void attach(TraderConnection session) {
        this.connection = session;
    }

    /** Runs one command line; false when it asks to quit. */
    boolean execute(String line) {
        String[] words = line.trim().split("\\s+");
        String command = words[0].toLowerCase(Locale.ROOT);
        try {
            switch (command) {
                case "" -> { }
                case "buy", "sell" -> newOrder(command, words);
                case "cancel" -> cancel(words);
                case "replace" -> replace(words);
                case "status" -> status(words);
                case "orders" -> listOrders();
                case "help", "?" -> replies.accept(HELP);
                case "quit", "exit" -> {
                    return false;
                }
                default -> replies.accept("unknown command '" + words[0] + "' (help lists the commands)");
            }
        } catch (IllegalArgumentException e) {
            replies.accept(e.getMessage());
        }
        return true;
    }

    /** Waits up to {@code millis} for an answer to every request sent; true when all were answered. */
    boolean awaitAnswers(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!orders.allAnswered()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    private void newOrder(String command, String[] words) {
        if (words.length < 4 || words.length > 5) {
            throw new IllegalArgumentException("usage: " + command + " SYMBOL QTY PRICE [day|gtc|ioc|fok]");
        }
        char side = command.equals("buy") ? Side.BUY : Side.SELL;
        String price = words[3].equalsIgnoreCase("market") || words[3].equalsIgnoreCase("mkt") ? null
            : price(words[3]);
        Character timeInForce = words.length == 5 ? TIME_IN_FORCE.get(words[4].toLowerCase(Locale.ROOT))
            : Character.valueOf(TimeInForce.DAY);
        if (timeInForce == null) {
            throw new IllegalArgumentException("time in force must be day, gtc, ioc or fok, was " + words[4]);
        }
        TraderOrders.Order order = orders.add(side, words[1].toUpperCase(Locale.ROOT), quantity(words[2]), price,
            timeInForce);
        send(orders.newOrderSingle(order), "order " + order.number + ": " + command + " " + order.quantity + " "
            + order.symbol + " @ " + (price == null ? "market" : price) + " " + named(timeInForce));
    }

    private void cancel(String[] words) {
        TraderOrders.Order order = order(words, 2, "cancel N");
        send(orders.cancel(order), "order " + order.number + ": cancel requested");
    }

    private void replace(String[] words) {
        TraderOrders.Order order = order(words, 4, "replace N QTY PRICE");
        long quantity = quantity(words[2]);
        String price = price(words[3]);
        send(orders.replace(order, quantity, price),
            "order " + order.number + ": replace by " + quantity + " @ " + price + " requested");
    }

    private void status(String[] words) {
        TraderOrders.Order order = order(words, 2, "status N");
        send(orders.status(order), "order " + order.number + ": status requested");
    }

    private void listOrders() {
        if (orders.all().isEmpty()) {
            replies.accept("no orders sent yet");
        }
        for (TraderOrders.Order order : orders.all()) {
            replies.accept("order " + order.number + ": " + (order.side == Side.BUY ? "buy " : "sell ")
                + order.quantity + " " + order.symbol + " @ " + (order.price == null ? "market" : order.price)
                + " " + named(order.timeInForce) + " (ClOrdID " + order.clOrdId + ")");
        }
    }

    private void send(Message message, String reply) {
        if (connection == null || !connection.send(message)) {
            throw new IllegalArgumentException("not sent: the session is not logged on");
        }
        replies.accept(reply);
    }

    private TraderOrders.Order order(String[] words, int length, String usage) {
        if (words.length != length) {
            throw new IllegalArgumentException("usage: " + usage);
        }
        TraderOrders.Order order = null;
        try {
            order = orders.byNumber(Integer.parseInt(words[1]));
        } catch (NumberFormatException e) {
            // reported below
        }
        if (order == null) {
            throw new IllegalArgumentException("no order " + words[1] + " sent from here ('orders' lists them)");
        }
        return order;
    }

    private static long quantity(String text) {
        try {
            long quantity = Long.parseLong(text);
            if (quantity > 0) {
                return quantity;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("quantity must be a positive whole number, was " + text);
    }

    private static String price(String text) {
        try {
            if (new BigDecimal(text).signum() > 0) {
                return text;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("price must be a positive decimal number (or 'market'), was " + text);
    }

    private static String named(char timeInForce) {
        return TIME_IN_FORCE.entrySet().stream().filter(e -> e.getValue() == timeInForce).map(Map.Entry::getKey)
            .findFirst().orElse("tif " + timeInForce).toUpperCase(Locale.ROOT);
    }

    @Override
    public void onApplicationMessage(Message message) {
        reports.accept(describe(message));
    }

    @Override
    public void onSessionEnded(String reason) {
        onSessionEnded.accept(reason);
    }

    /** One line for a report, a cancel reject or a reject; updates the order it is about. */
    private String describe(Message message) {
        String type = Fields.of(message, MsgType.FIELD);
        TraderOrders.Order order = orders.answeredBy(message);
        String who = order != null ? "order " + order.number : "ClOrdID " + Fields.of(message, ClOrdID.FIELD);
        String text = Fields.of(message, Text.FIELD);
        if (MsgType.ORDER_CANCEL_REJECT.equals(type)) {
            boolean ofCancel = String.valueOf(CxlRejResponseTo.ORDER_CANCEL_REQUEST)
                .equals(Fields.of(message, CxlRejResponseTo.FIELD));
            return who + " " + (ofCancel ? "CANCEL" : "REPLACE") + " REJECTED: " + text;
        }
        if (MsgType.REJECT.equals(type)) {
            return "REJECTED by the session: " + text + " (tag " + Fields.of(message, RefTagID.FIELD) + ")";
        }
        if (MsgType.BUSINESS_MESSAGE_REJECT.equals(type)) {
            return "REJECTED by the server: " + text;
        }
        if (!MsgType.EXECUTION_REPORT.equals(type)) {
            return "received 35=" + type;
        }
        String state = "filled " + Fields.of(message, CumQty.FIELD) + " of " + Fields.of(message, OrderQty.FIELD)
            + ", leaves " + Fields.of(message, LeavesQty.FIELD) + ", avg " + Fields.of(message, AvgPx.FIELD);
        String execType = Fields.of(message, ExecType.FIELD);
        return who + " " + switch (execType == null ? '?' : execType.charAt(0)) {
            case ExecType.NEW -> "NEW: " + (Fields.of(message, Side.FIELD).equals("1") ? "buy " : "sell ")
                + Fields.of(message, OrderQty.FIELD) + " " + Fields.of(message, Symbol.FIELD) + " @ "
                + (Fields.of(message, Price.FIELD) == null ? "market" : Fields.of(message, Price.FIELD))
                + " (OrderID " + Fields.of(message, OrderID.FIELD) + ")";
            case ExecType.TRADE -> "TRADE: " + (Fields.of(message, Side.FIELD).equals("1") ? "bought " : "sold ")
                + Fields.of(message, LastQty.FIELD) + " @ " + Fields.of(message, LastPx.FIELD) + " (" + state + ")";
            case ExecType.CANCELED -> "CANCELED (" + state + ")" + (text == null ? "" : ": " + text);
            case ExecType.REPLACED -> {
                if (order != null) {
                    orders.replaced(order, Fields.of(message, ClOrdID.FIELD), Long.parseLong(Fields.of(message, OrderQty.FIELD)),
                        Fields.of(message, Price.FIELD));
                }
                yield "REPLACED: now " + Fields.of(message, OrderQty.FIELD) + " @ " + Fields.of(message, Price.FIELD)
                    + " (" + state + ")";
            }
            case ExecType.REJECTED -> "REJECTED: " + text;
            case ExecType.ORDER_STATUS -> "STATUS: " + ORDER_STATUS.getOrDefault(
                Fields.of(message, OrdStatus.FIELD).charAt(0), Fields.of(message, OrdStatus.FIELD)) + " (" + state
                + ")";
            default -> "ExecType " + execType + " (" + state + ")" + (text == null ? "" : ": " + text);
        };
    }
}
