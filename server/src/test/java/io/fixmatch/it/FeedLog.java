package io.fixmatch.it;

import io.fixmatch.feed.codec.BookUpdater;
import io.fixmatch.feed.codec.FeedMessageReader;
import io.fixmatch.feed.codec.SymbolBook;
import io.fixmatch.feed.handler.MessageObserver;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a feed handler applied, in order (its {@link MessageObserver}): each message's number and bytes, and each
 * snapshot it took its books from (the number it was stamped with and a copy of the books). What the feed tests compare:
 * two handlers' messages at the same number, a log's numbers without a break, the books a snapshot gave against the
 * books a handler that followed the stream from earlier held at the snapshot's number.
 */
public final class FeedLog implements MessageObserver {
    /** A snapshot the handler installed: the number it is valid at and its books. */
    public record Installed(long lastSequence, SymbolBook[] books) {
        public List<String> states() {
            return Arrays.stream(books).map(SymbolBook::state).toList();
        }
    }

    private final TreeMap<Long, byte[]> messages = new TreeMap<>();
    private final List<Installed> snapshots = new ArrayList<>();
    /** The numbers applied, and -1 - n where the handler installed snapshot n: the order things happened. */
    private final List<Long> events = new ArrayList<>();

    @Override
    public synchronized void applied(long sequence, int symbolId, DirectBuffer buffer, int offset, int length) {
        byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        messages.put(sequence, bytes);
        events.add(sequence);
    }

    @Override
    public synchronized void installed(long lastSequence, SymbolBook[] books) {
        SymbolBook[] copy = new SymbolBook[books.length];
        for (int i = 0; i < books.length; i++) {
            copy[i] = books[i].copy();
        }
        events.add(-1L - snapshots.size());
        snapshots.add(new Installed(lastSequence, copy));
    }

    public synchronized List<Installed> snapshots() {
        return List.copyOf(snapshots);
    }

    public synchronized int size() {
        return messages.size();
    }

    public synchronized long first() {
        return messages.isEmpty() ? 0 : messages.firstKey();
    }

    public synchronized long last() {
        return messages.isEmpty() ? 0 : messages.lastKey();
    }

    /**
     * Where the handler's numbers do not follow one another: a message applied that is not the one after the last
     * message or snapshot, or a snapshot installed after the first (the stream had to be given up). Empty: from its
     * join on, the handler applied every number once, in order.
     */
    public synchronized List<String> breaks() {
        List<String> breaks = new ArrayList<>();
        long expected = -1;
        for (long event : events) {
            if (event < 0) {
                Installed snapshot = snapshots.get((int) (-1 - event));
                if (expected >= 0) {
                    breaks.add("a snapshot at " + snapshot.lastSequence() + " installed after message " + (expected - 1));
                }
                expected = snapshot.lastSequence() + 1;
            } else {
                if (expected >= 0 && event != expected) {
                    breaks.add("message " + event + " applied after " + (expected - 1));
                }
                expected = event + 1;
            }
        }
        return breaks;
    }

    /**
     * Every symbol's state ({@link SymbolBook#state()}) after message {@code sequence}, from the newest snapshot at or
     * before it and the messages after that snapshot; fails if a message between is missing.
     */
    public synchronized List<String> statesAt(long sequence) {
        Installed base = null;
        for (Installed snapshot : snapshots) {
            if (snapshot.lastSequence() <= sequence && (base == null || snapshot.lastSequence() > base.lastSequence())) {
                base = snapshot;
            }
        }
        if (base == null) {
            throw new AssertionError("no snapshot at or before " + sequence + " in this log");
        }
        SymbolBook[] books = new SymbolBook[base.books().length];
        for (int i = 0; i < books.length; i++) {
            books[i] = base.books()[i].copy();
        }
        BookUpdater updater = new BookUpdater(books);
        FeedMessageReader reader = new FeedMessageReader();
        UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
        for (long n = base.lastSequence() + 1; n <= sequence; n++) {
            byte[] message = messages.get(n);
            if (message == null) {
                throw new AssertionError("message " + n + " is not in this log (" + breaks() + ")");
            }
            view.wrap(message);
            reader.read(view, 0, message.length, n, updater);
        }
        return Arrays.stream(books).map(SymbolBook::state).toList();
    }

    /**
     * The numbers both logs hold whose messages differ (each "number: one / other", at most {@code limit}), and how
     * many numbers they share.
     */
    public static Comparison compare(FeedLog one, FeedLog other, int limit) {
        Map<Long, byte[]> mine;
        Map<Long, byte[]> theirs;
        synchronized (one) {
            mine = new TreeMap<>(one.messages);
        }
        synchronized (other) {
            theirs = new TreeMap<>(other.messages);
        }
        List<String> differences = new ArrayList<>();
        int shared = 0;
        int different = 0;
        for (Map.Entry<Long, byte[]> entry : mine.entrySet()) {
            byte[] their = theirs.get(entry.getKey());
            if (their == null) {
                continue;
            }
            shared++;
            if (!Arrays.equals(entry.getValue(), their)) {
                different++;
                if (differences.size() < limit) {
                    differences.add(entry.getKey() + ": " + hex(entry.getValue()) + " / " + hex(their));
                }
            }
        }
        return new Comparison(shared, different, differences);
    }

    /** What {@link #compare} found. */
    public record Comparison(int shared, int different, List<String> examples) {
    }

    private static String hex(byte[] bytes) {
        StringBuilder text = new StringBuilder();
        for (byte b : bytes) {
            text.append(String.format("%02x", b));
        }
        return text.toString();
    }
}
