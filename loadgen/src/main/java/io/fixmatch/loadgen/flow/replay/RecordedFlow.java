package io.fixmatch.loadgen.flow.replay;

import io.fixmatch.loadgen.flow.RequestKind;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A recorded order flow made replayable against a fresh server through one session: its requests in recorded
 * order, each cancel and replace resolved to the request (in the flow) that introduced the order it acts on, so
 * ClOrdIDs can be mapped onto ours; the recorded gaps between requests give the pacing.
 *
 * <p>What cannot be replayed is left out and counted: commands that are no client request (a journal's order status
 * queries, whose answers cannot be told from the order's own reports, and cancel-all on disconnect), and cancels or
 * replaces of orders that were placed before the recording began (a fresh server never saw them).
 */
public final class RecordedFlow {
    /** The format of the file, found from its first line. */
    public enum Format { JOURNAL_JSON, FIX_LOG }

    private final Format format;
    private final List<RecordedRequest> requests;
    /** For each request, the index of the request that introduced the order it acts on; -1 for a new order. */
    private final int[] references;
    private final long[] gapsNanos;
    private final Map<String, Long> skipped;
    private final Set<String> sessions;

    private RecordedFlow(Format format, List<RecordedRequest> requests, int[] references, Map<String, Long> skipped) {
        this.format = format;
        this.requests = requests;
        this.references = references;
        this.skipped = skipped;
        this.gapsNanos = new long[requests.size()];
        for (int i = 1; i < requests.size(); i++) {
            gapsNanos[i] = Math.max(0, requests.get(i).timeNanos() - requests.get(i - 1).timeNanos());
        }
        this.sessions = new LinkedHashSet<>();
        requests.forEach(r -> sessions.add(r.session()));
    }

    public static RecordedFlow load(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        Format format = null;
        List<RecordedRequest> read = new ArrayList<>();
        Map<String, Long> skipped = new TreeMap<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (format == null) {
                format = line.startsWith("{") ? Format.JOURNAL_JSON : Format.FIX_LOG;
            }
            StringBuilder skip = new StringBuilder();
            RecordedRequest request;
            try {
                request = format == Format.JOURNAL_JSON ? JournalDumpReader.parse(line, skip)
                    : FixLogReader.parse(line, skip);
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException(file + " line " + (n + 1) + ": " + e.getMessage(), e);
            }
            if (request == null) {
                skipped.merge("not a client request: " + skip, 1L, Long::sum);
            } else {
                read.add(request);
            }
        }
        if (format == null) {
            throw new IllegalArgumentException(file + " holds no recorded flow");
        }
        return resolve(format, read, skipped, file);
    }

    /** Keeps the replayable requests and links each cancel and replace to the request of its order. */
    private static RecordedFlow resolve(Format format, List<RecordedRequest> read, Map<String, Long> skipped,
                                        Path file) {
        List<RecordedRequest> kept = new ArrayList<>();
        List<Integer> references = new ArrayList<>();
        Map<String, Integer> bySessionAndId = new HashMap<>();
        for (RecordedRequest request : read) {
            int reference = -1;
            if (request.kind() != RequestKind.NEW_ORDER) {
                Integer order = request.origClOrdId() == null ? null
                    : bySessionAndId.get(key(request.session(), request.origClOrdId()));
                if (order == null) {
                    skipped.merge(request.kind() + " of an order placed before the recording", 1L, Long::sum);
                    continue;
                }
                reference = order;
            }
            if (request.kind() != RequestKind.CANCEL) {
                bySessionAndId.put(key(request.session(), request.clOrdId()), kept.size());
            }
            kept.add(request);
            references.add(reference);
        }
        if (kept.isEmpty()) {
            throw new IllegalArgumentException(file + " holds no request that can be replayed");
        }
        return new RecordedFlow(format, List.copyOf(kept), references.stream().mapToInt(Integer::intValue).toArray(),
            skipped);
    }

    private static String key(String session, String clOrdId) {
        return session + '\u0001' + clOrdId;
    }

    public int size() {
        return requests.size();
    }

    public RecordedRequest request(int index) {
        return requests.get(index);
    }

    /** The index of the request that introduced the order request {@code index} acts on; -1 for a new order. */
    public int reference(int index) {
        return references[index];
    }

    /** Recorded nanoseconds from request {@code index - 1} to request {@code index} (0 for the first). */
    public long gapNanos(int index) {
        return gapsNanos[index];
    }

    /** From the first request to the last, as recorded. */
    public long recordedSpanNanos() {
        return requests.get(requests.size() - 1).timeNanos() - requests.get(0).timeNanos();
    }

    public Set<RequestKind> kinds() {
        Set<RequestKind> kinds = EnumSet.noneOf(RequestKind.class);
        requests.forEach(r -> kinds.add(r.kind()));
        return kinds;
    }

    /** What the report says about the flow. */
    public Map<String, Object> describe(Path file) {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("file", file.toString());
        description.put("format", format == Format.JOURNAL_JSON ? "journal dump (JSON lines)" : "FIX message log");
        description.put("requests", requests.size());
        description.put("recorded_sessions", List.copyOf(sessions));
        description.put("recorded_span_s", recordedSpanNanos() / 1e9);
        description.put("skipped", skipped);
        return description;
    }
}
