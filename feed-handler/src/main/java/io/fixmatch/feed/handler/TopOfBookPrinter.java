package io.fixmatch.feed.handler;

import io.fixmatch.feed.codec.BookSide;
import io.fixmatch.feed.codec.SymbolBook;
import org.agrona.DirectBuffer;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Set;

/**
 * md-listen's output: a line for a symbol whenever its top of book (best bid and ask, their quantities), its phase or
 * its halt changes, and every symbol's line when the books come from a snapshot. On the handler's thread, under its
 * lock (the books are read as they are). A tool's printer: it allocates and writes as it goes.
 */
final class TopOfBookPrinter implements MessageObserver {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private final FeedHandler handler;
    private final Set<String> symbols;
    private final PrintStream out;
    /** The line last printed per symbol id (null: none). */
    private String[] printed = new String[0];

    /** @param symbols the symbols to print (empty: all of them) */
    TopOfBookPrinter(FeedHandler handler, Set<String> symbols, PrintStream out) {
        this.handler = handler;
        this.symbols = symbols;
        this.out = out;
    }

    @Override
    public void applied(long sequence, int symbolId, DirectBuffer buffer, int offset, int length) {
        SymbolBook book = handler.book(symbolId);
        if (book != null) {
            print(book, false);
        }
    }

    @Override
    public void installed(long lastSequence, SymbolBook[] books) {
        out.println(now() + " books from a snapshot as of message " + lastSequence + " (" + books.length
            + " symbols)");
        if (printed.length != books.length) {
            printed = new String[books.length];
        }
        for (SymbolBook book : books) {
            print(book, true);
        }
    }

    private void print(SymbolBook book, boolean always) {
        String name = handler.symbols().get(book.symbolId);
        if (!symbols.isEmpty() && !symbols.contains(name)) {
            return;
        }
        if (printed.length <= book.symbolId) {
            printed = Arrays.copyOf(printed, book.symbolId + 1);
        }
        int scale = handler.priceScale(book.symbolId);
        String line = String.format("%-8s bid %s | ask %s | %s%s", name, top(book.bids, scale), top(book.asks, scale),
            book.phase, book.halted ? " HALTED" : "");
        if (always || !line.equals(printed[book.symbolId])) {
            printed[book.symbolId] = line;
            String last = book.lastTradePrice == 0 ? "" : " | last " + price(book.lastTradePrice, scale);
            out.println(now() + " " + line + last);
        }
    }

    private static String top(BookSide side, int scale) {
        if (side.size() == 0) {
            return "-";
        }
        return side.quantity(0) + " @ " + price(side.price(0), scale) + " (" + side.size() + " levels)";
    }

    private static String price(long units, int scale) {
        return BigDecimal.valueOf(units, scale).toPlainString();
    }

    static String now() {
        return LocalTime.now().format(TIME);
    }
}
