package io.fixmatch.it.crash;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/**
 * Everything one trader's FIX engine saw of its session, as a trader's FIX log would show it: the order requests
 * it numbered, the messages it wrote to the wire, the messages it read from the wire, and its error events. Fed
 * by the QuickFIX/J callbacks (or, in the checker's own tests, by hand-written messages); read by
 * {@link CrashChecker}. Nothing here knows the server's internals: only FIX.
 *
 * <p>Thread-safe: QuickFIX/J's threads and the load driver's feed it at once.
 */
final class TraderLog {
    private final String compId;
    /** Order requests by ClOrdID, in the order they were numbered. */
    private final Map<String, Request> requests = new LinkedHashMap<>();
    private final Map<Integer, Request> requestsBySeqNum = new HashMap<>();
    /** ClOrdIDs of order requests seen going out on the wire (first send or resend). */
    private final Set<String> onWire = new HashSet<>();
    private final org.agrona.collections.LongArrayList reportNanos = new org.agrona.collections.LongArrayList();
    /** Reports received, by the server's MsgSeqNum (the first copy; a resend must carry the same content). */
    private final TreeMap<Integer, Report> reports = new TreeMap<>();
    /** Session-level (35=3) and business (35=j) rejects received: RefSeqNum to text. */
    private final Map<Integer, String> rejectsReceived = new HashMap<>();
    private final BitSet seqNumsReceived = new BitSet();
    private final BitSet seqNumsGapFilled = new BitSet();
    private int[] bodyHashes = new int[1024];
    private final List<String> sequenceProblems = new ArrayList<>();
    private final List<String> rejectsSent = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();
    private final Set<String> heartbeatTestReqIds = new HashSet<>();
    private int maxSeqNumReceived;
    private int maxSeqNumSent;
    private int serverLogons;
    private int resendRequestsReceived;
    private int statusRequestsNumbered;
    /** Status requests answered (by the engine: not a cluster gateway's refusal, below). */
    private int statusAnswers;
    /** Status requests a cluster gateway refused while no leader answered, and their ClOrdIDs not yet asked again. */
    private int statusRefusals;
    private final List<String> refusedStatusRequests = new ArrayList<>();
    private int expectedSeqNumAtEnd = -1;

    TraderLog(String compId) {
        this.compId = compId;
    }

    String compId() {
        return compId;
    }

    /** A message the FIX engine numbered for sending (QuickFIX/J's toApp: at the first send and at resends). */
    synchronized void numbered(String raw) {
        FixFields message = FixFields.parse(raw);
        if (Request.Kind.of(message.msgType()) != null) {
            Request request = Request.of(message);
            if (requests.putIfAbsent(request.clOrdId(), request) == null) {
                requestsBySeqNum.put(request.seqNum(), request);
            }
        } else if ("H".equals(message.msgType()) && !message.isFlagSet(43)) {
            statusRequestsNumbered++;
        }
    }

    /** A message written to the wire. */
    synchronized void sent(String raw) {
        FixFields message = FixFields.parse(raw);
        int seqNum = message.seqNum();
        switch (message.msgType()) {
            case "A" -> {
                if (message.isFlagSet(141)) {
                    sequenceProblems.add("the client's Logon reset the sequence numbers: " + message.show());
                }
                if (seqNum <= maxSeqNumSent) {
                    sequenceProblems.add("the client's Logon MsgSeqNum " + seqNum + " is not above the last sent "
                        + maxSeqNumSent);
                }
            }
            case "3" -> rejectsSent.add(message.show());
            default -> {
                if (Request.Kind.of(message.msgType()) != null) {
                    onWire.add(message.get(11));
                }
            }
        }
        maxSeqNumSent = Math.max(maxSeqNumSent, seqNum);
    }

    /** When each report arrived (System.nanoTime), in arrival order: the pauses a failover makes, as clients see it. */
    synchronized long[] reportArrivals() {
        return reportNanos.toLongArray();
    }

    /** A message read from the wire (before the FIX engine checks it). */
    synchronized void received(String raw) {
        FixFields message = FixFields.parse(raw);
        int seqNum = message.seqNum();
        String type = message.msgType();
        if ("4".equals(type)) {
            sequenceReset(message, seqNum);
            return;
        }
        if (seqNum < 1) {
            sequenceProblems.add("a message without a valid MsgSeqNum: " + message.show());
            return;
        }
        noteContent(message, seqNum);
        switch (type) {
            case "A" -> {
                serverLogons++;
                if (message.isFlagSet(141)) {
                    sequenceProblems.add("the server's Logon reset the sequence numbers: " + message.show());
                }
                if (seqNum <= maxSeqNumReceived) {
                    sequenceProblems.add("the server's Logon number " + serverLogons + " has MsgSeqNum " + seqNum
                        + ", not above the last received " + maxSeqNumReceived);
                }
            }
            case "8", "9" -> {
                Report report = Report.of(message);
                if (reports.putIfAbsent(seqNum, report) == null) {
                    reportNanos.addLong(System.nanoTime());
                    if (report.isStatusAnswer() && report.isClusterUnavailable()) {
                        statusRefusals++;
                        refusedStatusRequests.add(report.clOrdId());
                    } else if (report.isStatusAnswer()) {
                        statusAnswers++;
                    }
                }
            }
            case "2" -> resendRequestsReceived++;
            case "3", "j" -> rejectsReceived.putIfAbsent((int) message.getLong(45, -1), message.show());
            case "5" -> {
                String text = message.get(58);
                if (text != null && text.contains("MsgSeqNum too low")) {
                    sequenceProblems.add("the server logged the client out: " + text);
                }
            }
            case "0" -> {
                if (message.has(112)) {
                    heartbeatTestReqIds.add(message.get(112));
                }
            }
            default -> {
            }
        }
        maxSeqNumReceived = Math.max(maxSeqNumReceived, seqNum);
    }

    /** An error event of the FIX engine. */
    synchronized void error(String text) {
        errors.add(text);
        if (text.contains("MsgSeqNum too low")) {
            sequenceProblems.add("the client found the server's MsgSeqNum too low: " + text);
        }
    }

    /** At the end: the next MsgSeqNum the client expects from the server. */
    synchronized void finish(int expectedSeqNum) {
        expectedSeqNumAtEnd = expectedSeqNum;
    }

    private void sequenceReset(FixFields message, int seqNum) {
        long newSeqNo = message.getLong(36, -1);
        if (!message.isFlagSet(123)) {
            sequenceProblems.add("the server reset the sequence (SequenceReset-Reset): " + message.show());
        }
        if (seqNum >= 1 && newSeqNo > seqNum) {
            seqNumsGapFilled.set(seqNum, (int) newSeqNo);
        }
    }

    /** A number received twice must carry the same message (a resend), never another one. */
    private void noteContent(FixFields message, int seqNum) {
        if (seqNum >= bodyHashes.length) {
            bodyHashes = Arrays.copyOf(bodyHashes, Math.max(seqNum + 1, bodyHashes.length * 2));
        }
        int hash = message.bodyHash();
        hash = hash == 0 ? 1 : hash;
        if (bodyHashes[seqNum] == 0) {
            bodyHashes[seqNum] = hash;
        } else if (bodyHashes[seqNum] != hash) {
            sequenceProblems.add("MsgSeqNum " + seqNum + " received again with other content: " + message.show());
        }
        seqNumsReceived.set(seqNum);
    }

    // --- what the checker and the load driver read ---

    synchronized List<Request> requests() {
        return new ArrayList<>(requests.values());
    }

    synchronized Request request(String clOrdId) {
        return requests.get(clOrdId);
    }

    synchronized boolean wentOnWire(String clOrdId) {
        return onWire.contains(clOrdId);
    }

    /** The session-level or business reject the server sent for the request, or null. */
    synchronized String rejectOf(Request request) {
        return rejectsReceived.get(request.seqNum());
    }

    /** Reports in the server's order (MsgSeqNum). */
    synchronized List<Report> reports() {
        return new ArrayList<>(reports.values());
    }

    synchronized List<String> sequenceProblems() {
        List<String> problems = new ArrayList<>(sequenceProblems);
        if (expectedSeqNumAtEnd > 0) {
            BitSet covered = (BitSet) seqNumsReceived.clone();
            covered.or(seqNumsGapFilled);
            int missing = covered.nextClearBit(1);
            if (missing < expectedSeqNumAtEnd) {
                problems.add("MsgSeqNum " + missing + " never arrived nor was gap-filled, though the client expects "
                    + expectedSeqNumAtEnd + " next");
            }
        }
        return problems;
    }

    synchronized List<String> rejectsSent() {
        return new ArrayList<>(rejectsSent);
    }

    synchronized List<String> errors() {
        return new ArrayList<>(errors);
    }

    synchronized boolean heartbeatReceived(String testReqId) {
        return heartbeatTestReqIds.contains(testReqId);
    }

    synchronized int resendRequestsReceived() {
        return resendRequestsReceived;
    }

    synchronized int statusRequestsNumbered() {
        return statusRequestsNumbered;
    }

    synchronized int statusAnswers() {
        return statusAnswers;
    }

    synchronized int statusRefusals() {
        return statusRefusals;
    }

    /** The ClOrdIDs whose status requests were refused as "cluster unavailable" since the last call. */
    synchronized List<String> takeRefusedStatusRequests() {
        List<String> taken = new ArrayList<>(refusedStatusRequests);
        refusedStatusRequests.clear();
        return taken;
    }

    synchronized int requestCount(Request.Kind kind) {
        return (int) requests.values().stream().filter(request -> request.kind() == kind).count();
    }

    /** Reports that are executions or cancel rejects (not status answers), each counted once. */
    synchronized int reportCount() {
        return reports.size() - statusAnswers - statusRefusals;
    }

    static int total(Collection<TraderLog> logs, ToIntFunction<TraderLog> count) {
        return logs.stream().mapToInt(count).sum();
    }
}
