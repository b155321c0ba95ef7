package io.fixmatch.benchmarks.fix;

import io.fixmatch.engine.api.ClientOrderId;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderStatus;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.loop.CommandTrace;
import io.fixmatch.fix.app.EventReportBody;
import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.app.VenueDictionary;
import io.fixmatch.fix.codec.FixDecimals;
import io.fixmatch.fix.codec.FixFramer;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.dictionary.DictionaryValidator;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The gateway's codec per message, in ns/op (run with {@code -prof gc} for B/op):
 * <ul>
 *   <li>{@code decodeNewOrderSingle}: frame a NewOrderSingle in a Netty buffer (BeginString, BodyLength, CheckSum),
 *       copy it out, parse it, and read every order field the gateway reads (ClOrdID, Symbol lookup, Side, OrderQty,
 *       OrdType, Price as a decimal, TimeInForce).</li>
 *   <li>{@code decodeAndValidateNewOrderSingle}: the same, with the message validated against the venue dictionary
 *       first (structure, required fields, every field's type, enumerations and membership), as the session does
 *       for every message (its {@code InboundChecks}, which then also compare SendingTime and the CompIDs).</li>
 *   <li>{@code validateNewOrderSingle}: the validation alone, of the parsed message.</li>
 *   <li>{@code decodeNewOrderSingleViaCumulation}: the same, the way the gateway did it before it framed in place:
 *       the read bytes first copied into a cumulation buffer, framed there, then copied out (one copy more).</li>
 *   <li>{@code encodeExecutionReport}: write a Trade ExecutionReport as the session does: standard header (CompIDs,
 *       MsgSeqNum, SendingTime), every ER field, BodyLength and CheckSum. Tracing off (the default).</li>
 *   <li>{@code encodeExecutionReportTraced}: the same for a session with latencyTrace=true: the seven trace tags
 *       (7101-7107) and the System.nanoTime() of TRACE_WRITE.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Dchronicle.analytics.disable=true")
@State(Scope.Thread)
public class FixCodecBenchmark {
    private static final byte[] SENDER = "FIXMATCH".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TARGET = "CLIENT1".getBytes(StandardCharsets.US_ASCII);

    private final FixFramer framer = new FixFramer(8192);
    private final FixMessage message = new FixMessage();
    private final byte[] frame = new byte[8192];
    private final ClientOrderId clientOrderId = new ClientOrderId();
    private final FixWriter writer = new FixWriter(8192);
    private final ExecutionEvent event = new ExecutionEvent();
    private final DictionaryValidator validator = new DictionaryValidator(VenueDictionary.get());
    private final CommandTrace trace = new CommandTrace();
    /** The socket's read buffer as the old gateway accumulated it before framing. */
    private final UnsafeBuffer cumulation = new UnsafeBuffer(ByteBuffer.allocateDirect(8192));
    private SymbolTable symbols;
    private EventReportBody report;
    /** The message as it lies in a socket's (direct) read buffer. */
    private UnsafeBuffer newOrderSingle;
    private int newOrderSingleLength;
    private long seqNum = 1;

    @Setup
    public void setup() {
        List<SymbolSpec> specs = List.of(SymbolSpec.of("AAPL", 2, 1, 1), SymbolSpec.of("MSFT", 2, 1, 1),
            SymbolSpec.of("GOOG", 2, 1, 1));
        symbols = new SymbolTable(specs);
        report = new EventReportBody(symbols);
        FixWriter nos = new FixWriter(8192);
        nos.begin(MsgTypes.NEW_ORDER_SINGLE).field(FixTags.SENDER_COMP_ID, TARGET).field(FixTags.TARGET_COMP_ID, SENDER)
            .field(FixTags.MSG_SEQ_NUM, 123_456L).timestamp(FixTags.SENDING_TIME, 1_795_000_000_000_000_000L)
            .field(FixTags.CL_ORD_ID, "ORD-20261123-000042").field(FixTags.SYMBOL, "MSFT").field(FixTags.SIDE, '1')
            .field(FixTags.ORDER_QTY, 300L).field(FixTags.ORD_TYPE, '2').field(FixTags.PRICE, "412.35")
            .field(FixTags.TIME_IN_FORCE, '0').timestamp(FixTags.TRANSACT_TIME, 1_795_000_000_000_000_000L);
        int length = nos.finish();
        newOrderSingle = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        newOrderSingle.putBytes(0, nos.buffer(), nos.start(), length);
        newOrderSingleLength = length;

        frameAndParse(newOrderSingle);
        if (validator.validate(message) != DictionaryValidator.VALID) {
            throw new IllegalStateException("the benchmark's order is not valid: " + validator.refTagId());
        }

        event.begin(EventType.FILL, 1_795_000_000_000_000_000L, 1)
            .ids(987_654L, 2_345_678L)
            .order(1, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 41_235, 300)
            .lastFill(100, 41_230)
            .quantities(200, 100, 4_123_000)
            .status(OrderStatus.PARTIALLY_FILLED)
            .rejectReason(RejectReason.NONE);
        event.clientOrderId().copyFrom("ORD-20261123-000042");
        long now = System.nanoTime();
        trace.set(now, now + 1_500, now + 4_000, now + 5_000, now + 6_500);
    }

    @Benchmark
    public long decodeNewOrderSingle() {
        return decode(newOrderSingle);
    }

    @Benchmark
    public long decodeNewOrderSingleViaCumulation() {
        cumulation.putBytes(0, newOrderSingle, 0, newOrderSingleLength);
        return decode(cumulation);
    }

    @Benchmark
    public long decodeAndValidateNewOrderSingle() {
        frameAndParse(newOrderSingle);
        if (validator.validate(message) != DictionaryValidator.VALID) {
            throw new IllegalStateException("not valid");
        }
        return readOrder();
    }

    @Benchmark
    public int validateNewOrderSingle() {
        return validator.validate(message);
    }

    private long decode(UnsafeBuffer readBuffer) {
        frameAndParse(readBuffer);
        return readOrder();
    }

    private void frameAndParse(UnsafeBuffer readBuffer) {
        if (framer.scan(readBuffer, 0, newOrderSingleLength) != FixFramer.FRAME) {
            throw new IllegalStateException("not a frame");
        }
        int length = framer.length();
        readBuffer.getBytes(0, frame, 0, length);
        if (FixParser.parse(frame, 0, length, message) != FixParser.OK) {
            throw new IllegalStateException("does not parse");
        }
    }

    /** Every order field the gateway reads. */
    private long readOrder() {
        int idField = message.indexOf(FixTags.CL_ORD_ID);
        clientOrderId.copyFrom(frame, message.valueStartAt(idField), message.valueLengthAt(idField));
        int symbolField = message.indexOf(FixTags.SYMBOL);
        int symbol = symbols.idOf(frame, message.valueStartAt(symbolField), message.valueLengthAt(symbolField));
        int qtyField = message.indexOf(FixTags.ORDER_QTY);
        long quantity = FixDecimals.parse(frame, message.valueStartAt(qtyField), message.valueLengthAt(qtyField), 0);
        int priceField = message.indexOf(FixTags.PRICE);
        long price = FixDecimals.parse(frame, message.valueStartAt(priceField), message.valueLengthAt(priceField),
            symbols.priceScale(symbol));
        boolean buy = message.isSingleByte(FixTags.SIDE, '1');
        boolean limit = message.isSingleByte(FixTags.ORD_TYPE, '2');
        boolean day = message.isSingleByte(FixTags.TIME_IN_FORCE, '0');
        return price + quantity + symbol + clientOrderId.length() + (buy ? 1 : 0) + (limit ? 2 : 0) + (day ? 4 : 0)
            + message.longValue(FixTags.MSG_SEQ_NUM);
    }

    @Benchmark
    public int encodeExecutionReport() {
        writer.begin(MsgTypes.EXECUTION_REPORT)
            .field(FixTags.SENDER_COMP_ID, SENDER)
            .field(FixTags.TARGET_COMP_ID, TARGET)
            .field(FixTags.MSG_SEQ_NUM, seqNum++)
            .timestamp(FixTags.SENDING_TIME, 1_795_000_000_000_000_000L + seqNum * 1_000_000L);
        report.of(event).writeBody(writer);
        return writer.finish();
    }

    @Benchmark
    public int encodeExecutionReportTraced() {
        writer.begin(MsgTypes.EXECUTION_REPORT)
            .field(FixTags.SENDER_COMP_ID, SENDER)
            .field(FixTags.TARGET_COMP_ID, TARGET)
            .field(FixTags.MSG_SEQ_NUM, seqNum++)
            .timestamp(FixTags.SENDING_TIME, 1_795_000_000_000_000_000L + seqNum * 1_000_000L);
        report.of(event).traced(trace, trace.matchDoneNanos() + 800).writeBody(writer);
        return writer.finish();
    }
}
