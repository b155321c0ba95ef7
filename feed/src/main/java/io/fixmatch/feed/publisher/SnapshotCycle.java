package io.fixmatch.feed.publisher;

import io.fixmatch.feed.codec.BookSide;
import io.fixmatch.feed.codec.Datagram;
import io.fixmatch.feed.codec.SymbolBook;
import io.fixmatch.feed.sbe.BookSnapshotEncoder;
import io.fixmatch.feed.sbe.BooleanType;
import io.fixmatch.feed.sbe.MessageHeaderEncoder;
import io.fixmatch.feed.sbe.Side;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The snapshot channel (docs/FEED.md): every symbol's whole book, one after the other, each in as many BookSnapshot
 * parts (one a datagram) as its levels need, all stamped with the same {@code lastSequence}: the publisher's thread
 * writes a cycle between two records of the stream, so every book of it is as of that one number. A handler that
 * joins takes the books of one cycle and applies the stream from the number after it.
 */
final class SnapshotCycle {
    /** side u8, price i64, quantity i64. */
    private static final int LEVEL_BYTES = 17;
    private static final int GROUP_HEADER = 4;

    private final UdpSender sender;
    private final FeedCounters counters;
    private final byte[] session;
    private final List<String> symbols;
    private final int[] priceScales;
    private final ByteBuffer datagram;
    private final UnsafeBuffer view;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final BookSnapshotEncoder snapshot = new BookSnapshotEncoder();
    private final int maxDatagramBytes;
    private long cycle;
    private long datagramNumber;

    SnapshotCycle(UdpSender sender, FeedCounters counters, byte[] session, List<String> symbols, int[] priceScales,
                  int maxDatagramBytes) {
        this.sender = sender;
        this.counters = counters;
        this.session = session;
        this.symbols = symbols;
        this.priceScales = priceScales;
        this.maxDatagramBytes = maxDatagramBytes;
        this.datagram = ByteBuffer.allocateDirect(maxDatagramBytes);
        this.view = new UnsafeBuffer(datagram);
    }

    /** Sends one cycle: every book as of {@code lastSequence}. */
    void send(SymbolBook[] books, long lastSequence) {
        cycle++;
        for (SymbolBook book : books) {
            sendBook(book, lastSequence, books.length);
        }
        counters.snapshotCycles++;
    }

    private void sendBook(SymbolBook book, long lastSequence, int symbolCount) {
        String name = symbols.get(book.symbolId);
        int fixed = Datagram.HEADER_LENGTH + Datagram.MESSAGE_LENGTH_BYTES + MessageHeaderEncoder.ENCODED_LENGTH
            + BookSnapshotEncoder.BLOCK_LENGTH + GROUP_HEADER + 1 + name.length();
        int perPart = Math.max(1, (maxDatagramBytes - fixed) / LEVEL_BYTES);
        int levels = book.bids.size() + book.asks.size();
        int parts = Math.max(1, (levels + perPart - 1) / perPart);
        int next = 0;
        for (int part = 1; part <= parts; part++) {
            int inPart = Math.min(perPart, levels - next);
            int at = Datagram.HEADER_LENGTH + Datagram.MESSAGE_LENGTH_BYTES;
            snapshot.wrapAndApplyHeader(view, at, header)
                .symbolId(book.symbolId)
                .symbolCount(symbolCount)
                .lastSequence(lastSequence)
                .cycle(cycle)
                .part(part)
                .parts(parts)
                .phase(book.phase)
                .halted(book.halted ? BooleanType.TRUE : BooleanType.FALSE)
                .priceScale((short) priceScales[book.symbolId])
                .indicativePrice(book.indicativePrice)
                .indicativeVolume(book.indicativeVolume)
                .lastTradePrice(book.lastTradePrice);
            BookSnapshotEncoder.LevelsEncoder group = snapshot.levelsCount(inPart);
            for (int i = 0; i < inPart; i++, next++) {
                boolean bid = next < book.bids.size();
                BookSide side = bid ? book.bids : book.asks;
                int position = bid ? next : next - book.bids.size();
                group.next().side(bid ? Side.BUY : Side.SELL).price(side.price(position))
                    .quantity(side.quantity(position));
            }
            snapshot.symbolName(name);
            int length = MessageHeaderEncoder.ENCODED_LENGTH + snapshot.encodedLength();
            Datagram.putMessageLength(view, Datagram.HEADER_LENGTH, length);
            Datagram.putHeader(view, 0, session, ++datagramNumber, 1);
            datagram.clear().limit(Datagram.HEADER_LENGTH + Datagram.MESSAGE_LENGTH_BYTES + length);
            counters.sendFailures += sender.send(datagram);
            counters.snapshotDatagrams++;
        }
    }
}
