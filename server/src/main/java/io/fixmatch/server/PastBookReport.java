package io.fixmatch.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fixmatch.journal.JournalInstant;
import io.fixmatch.journal.PastBook;

import java.io.UncheckedIOException;
import java.util.List;

/**
 * A {@link PastBook} printed for people (each side's orders in priority order, a header saying what instant and
 * which journal record it is as of, and where it was rebuilt from) or as one JSON object for programs. Prices are
 * decimals at the symbol's scale, owners their sessions' CompIDs, journal indexes hexadecimal in the text (as
 * fixmatch-journal prints them) and numbers in the JSON (as its {@code --json} does).
 */
final class PastBookReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String[] HEADINGS = {"price", "leaves", "session", "OrderID", "ClOrdID", "TIF", "quantity",
        "filled"};

    private PastBookReport() {
    }

    static String text(PastBook book) {
        StringBuilder text = new StringBuilder(book.symbol()).append(" as of journal record ");
        if (book.lastCommandIndex() == PastBook.NO_COMMAND) {
            text.append(hex(book.throughIndex())).append(": no command at or before it");
        } else {
            text.append(hex(book.lastCommandIndex())).append(", ").append(book.lastCommandTime());
        }
        text.append(" (asked: ").append(book.requested()).append(")\n");
        if (book.snapshot() != null) {
            text.append("rebuilt from ").append(book.snapshot().getFileName()).append(" (record ")
                .append(hex(book.snapshotIndex())).append(") and the ").append(book.replayedCommands())
                .append(" journal commands after it\n");
        } else {
            text.append("rebuilt from the journal's start: ").append(book.replayedCommands())
                .append(" journal commands replayed\n");
        }
        if (book.halted()) {
            text.append("trading halted by the operator\n");
        }
        side(text, "BIDS", book, book.bids());
        side(text, "ASKS", book, book.asks());
        return text.toString();
    }

    private static void side(StringBuilder text, String name, PastBook book, List<PastBook.Order> orders) {
        text.append(name);
        if (orders.isEmpty()) {
            text.append("  none\n");
            return;
        }
        long prices = orders.stream().mapToLong(PastBook.Order::price).distinct().count();
        long lots = orders.stream().mapToLong(PastBook.Order::leaves).sum();
        text.append("  ").append(orders.size()).append(orders.size() == 1 ? " order, " : " orders, ").append(prices)
            .append(prices == 1 ? " price, " : " prices, ").append(lots).append(" open\n");
        String[][] rows = new String[orders.size() + 1][];
        rows[0] = HEADINGS;
        for (int i = 0; i < orders.size(); i++) {
            PastBook.Order order = orders.get(i);
            rows[i + 1] = new String[] {book.decimal(order.price()), Long.toString(order.leaves()), order.session(),
                Long.toString(order.orderId()), order.clOrdId(), order.tif(), Long.toString(order.quantity()),
                Long.toString(order.filled())};
        }
        int[] widths = new int[HEADINGS.length];
        for (String[] row : rows) {
            for (int column = 0; column < row.length; column++) {
                widths[column] = Math.max(widths[column], row[column].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int column = 0; column < row.length; column++) {
                boolean number = column != 2 && column != 4 && column != 5; // text columns align left
                String cell = row[column];
                String padding = " ".repeat(widths[column] - cell.length());
                line.append("  ").append(number ? padding + cell : cell + padding);
            }
            text.append(line.toString().stripTrailing()).append('\n');
        }
    }

    static String json(PastBook book) {
        ObjectNode root = JSON.createObjectNode();
        root.put("symbol", book.symbol());
        if (book.requested() instanceof JournalInstant.AtIndex index) {
            root.putObject("requested").put("index", index.index());
        } else {
            root.putObject("requested").put("time", book.requested().toString());
        }
        root.put("throughIndex", book.throughIndex());
        if (book.lastCommandIndex() == PastBook.NO_COMMAND) {
            root.putNull("lastCommand");
        } else {
            root.putObject("lastCommand").put("index", book.lastCommandIndex()).put("time", book.lastCommandTime());
        }
        if (book.snapshot() == null) {
            root.putNull("snapshot");
        } else {
            root.putObject("snapshot").put("file", book.snapshot().toString()).put("index", book.snapshotIndex());
        }
        root.put("replayedCommands", book.replayedCommands());
        root.put("halted", book.halted());
        orders(root.putArray("bids"), book, book.bids());
        orders(root.putArray("asks"), book, book.asks());
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void orders(ArrayNode array, PastBook book, List<PastBook.Order> orders) {
        for (PastBook.Order order : orders) {
            array.addObject().put("orderId", order.orderId()).put("session", order.session())
                .put("clOrdId", order.clOrdId()).put("tif", order.tif()).put("price", book.decimal(order.price()))
                .put("quantity", order.quantity()).put("leaves", order.leaves()).put("filled", order.filled());
        }
    }

    private static String hex(long index) {
        return "0x" + Long.toHexString(index);
    }
}
