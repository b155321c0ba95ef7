package io.fixmatch.journal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.CommandType;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.config.SymbolSpec;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A journal in readable form, one line per record, for ops, audits and replays: prices as decimals (each symbol's
 * scale as the journal recorded it), sessions by CompID, times in UTC to the nanosecond. Opens the queue read-only:
 * safe on the journal of a running server.
 *
 * <p>{@link Format#JSON}: one JSON object per command line, keys in this order (absent when they do not apply):
 * {@code index} (the Chronicle index), {@code time}, {@code type} ({@link CommandType} name), {@code session},
 * {@code symbol}, {@code side}, {@code ordType}, {@code tif}, {@code price} (decimal string), {@code qty},
 * {@code clOrdId}, {@code origClOrdId}. Symbol table records are left out (they are no commands). The operator's
 * commands (HALT_SYMBOL, RESUME_SYMBOL) show {@code session} {@value #OPERATOR} and the symbol only.
 * {@link Format#TEXT}: the same fields on one line, plus the symbol table records.
 */
public final class JournalDump {
    /** The output forms. */
    public enum Format { TEXT, JSON }

    private static final DateTimeFormatter NANOS_UTC =
        DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The session name of the operator's commands (issued through the admin endpoint). */
    public static final String OPERATOR = "operator";

    private JournalDump() {
    }

    /**
     * One journal command as the dump shows it; a field that does not apply to the command's type is null.
     *
     * @param index       the record's Chronicle index
     * @param time        when the command entered the server: ISO-8601 UTC with nanoseconds
     * @param type        NEW_ORDER, CANCEL, REPLACE, ORDER_STATUS, CANCEL_ALL_FOR_OWNER, HALT_SYMBOL, RESUME_SYMBOL
     * @param session     the CompID of the command's owner; {@value #OPERATOR} for halts and resumes
     * @param symbol      the symbol; null for CANCEL_ALL_FOR_OWNER
     * @param side        BUY or SELL; null for CANCEL_ALL_FOR_OWNER
     * @param ordType     LIMIT or MARKET: new orders and replaces
     * @param tif         DAY, GTC, IOC or FOK: new orders
     * @param price       the limit price as a decimal: limit orders and replaces
     * @param qty         the order quantity (a replace's new total): new orders and replaces
     * @param clOrdId     the ClOrdID (of the request for a cancel); null for CANCEL_ALL_FOR_OWNER
     * @param origClOrdId the OrigClOrdID of a cancel or replace
     * @param setting     SET_SESSION_CONTROL's setting and value, e.g. {@code MAX_ORDER_QUANTITY=1000}; the reference
     *                    price of SET_REFERENCE_PRICE is in {@code price}
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"index", "time", "type", "session", "symbol", "side", "ordType", "tif", "price", "qty",
        "clOrdId", "origClOrdId", "setting"})
    public record Entry(long index, String time, String type, String session, String symbol, String side,
                        String ordType, String tif, String price, Long qty, String clOrdId, String origClOrdId,
                        String setting) {

        static Entry of(long index, Command command, List<SymbolSpec> symbols, IntFunction<String> sessionNames) {
            CommandType type = command.type();
            boolean operators = type.isOperators();
            boolean ofAnOrder = type != CommandType.CANCEL_ALL_FOR_OWNER && !operators;
            boolean sizes = type == CommandType.NEW_ORDER || type == CommandType.REPLACE;
            boolean priced = sizes && command.orderType() == OrderType.LIMIT
                || type == CommandType.SET_REFERENCE_PRICE;
            // The operator's commands that name a symbol; a session's setting carries its code in that field.
            boolean namesSymbol = type == CommandType.HALT_SYMBOL || type == CommandType.RESUME_SYMBOL
                || type == CommandType.BOOK_QUERY || type == CommandType.SET_REFERENCE_PRICE;
            SessionControl control = type == CommandType.SET_SESSION_CONTROL
                ? SessionControl.ofCode(command.symbolId()) : null;
            int symbolId = command.symbolId();
            SymbolSpec symbol = symbolId >= 0 && symbolId < symbols.size() ? symbols.get(symbolId) : null;
            String price = !priced ? null : symbol == null ? Long.toString(command.price())
                : BigDecimal.valueOf(command.price(), symbol.priceScale()).toPlainString();
            return new Entry(index, utc(command.timestampNanos()), type.name(),
                operators && command.owner() == Command.OPERATOR ? OPERATOR : sessionNames.apply(command.owner()),
                !ofAnOrder && !namesSymbol ? null : symbol != null ? symbol.name() : "#" + symbolId,
                ofAnOrder ? command.side().name() : null,
                sizes ? command.orderType().name() : null,
                type == CommandType.NEW_ORDER ? command.timeInForce().name() : null,
                price,
                sizes ? command.quantity() : null,
                ofAnOrder ? command.clientOrderId().toString() : null,
                command.origClientOrderId().isEmpty() ? null : command.origClientOrderId().toString(),
                type != CommandType.SET_SESSION_CONTROL ? null
                    : (control == null ? "#" + command.symbolId() : control.name()) + "=" + command.quantity());
        }

        String toJson() {
            try {
                return JSON.writeValueAsString(this);
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The same fields as the JSON, space-separated, for people. */
        String toText() {
            StringBuilder line = new StringBuilder(JournalReader.describe(index)).append(' ').append(time).append(' ')
                .append(session).append(' ').append(type);
            for (String field : new String[] {symbol, side, ordType, tif}) {
                if (field != null) {
                    line.append(' ').append(field);
                }
            }
            if (qty != null) {
                line.append(' ').append(qty);
            }
            if (price != null) {
                line.append(" @ ").append(price);
            }
            if (clOrdId != null) {
                line.append(" clOrdId=").append(clOrdId);
            }
            if (setting != null) {
                line.append(' ').append(setting);
            }
            if (origClOrdId != null) {
                line.append(" origClOrdId=").append(origClOrdId);
            }
            return line.toString();
        }
    }

    /** A journal timestamp (nanoseconds since the epoch) in ISO-8601 UTC, to the nanosecond. */
    static String utc(long epochNanos) {
        return NANOS_UTC.format(Instant.ofEpochSecond(0, epochNanos));
    }

    /** Text, sessions shown by owner number ({@code #1}). */
    public static long dump(Path directory, PrintStream out) {
        return dump(directory, Format.TEXT, owner -> "#" + owner, out);
    }

    /**
     * Writes one line per record to {@code out}, naming each command's owner with {@code sessionNames}; returns the
     * number of commands. A record that cannot be read stops the dump with a {@link JournalException}.
     */
    public static long dump(Path directory, Format format, IntFunction<String> sessionNames, PrintStream out) {
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.single(directory.toFile()).readOnly(true)
            .build()) {
            return new JournalReader().readAll(queue, new JournalReader.Visitor() {
                private List<SymbolSpec> symbols = List.of();

                @Override
                public void onSymbols(long index, List<SymbolSpec> recorded) {
                    symbols = recorded;
                    if (format == Format.TEXT) {
                        out.println(JournalReader.describe(index) + " SYMBOLS " + recorded);
                    }
                }

                @Override
                public void onOwners(long index, List<String> owners) {
                    if (format == Format.TEXT) {
                        out.println(JournalReader.describe(index) + " SESSIONS " + owners);
                    }
                }

                @Override
                public void onCommand(long index, Command command) {
                    Entry entry = Entry.of(index, command, symbols, sessionNames);
                    out.println(format == Format.JSON ? entry.toJson() : entry.toText());
                }
            });
        }
    }
}
