package io.fixmatch.cluster.client;

import io.aeron.cluster.client.EgressListener;
import io.aeron.cluster.codecs.EventCode;
import io.aeron.logbuffer.Header;
import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.cluster.protocol.GatewayDirectory;
import io.fixmatch.cluster.protocol.Ingress;
import io.fixmatch.cluster.protocol.ProtocolVersion;
import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.engine.loop.CpuPinning;
import io.fixmatch.engine.loop.EngineLink;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.engine.loop.WakeableBackoffIdleStrategy;
import io.fixmatch.engine.matching.EngineView;
import io.fixmatch.engine.metrics.EngineCounters;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * How a gateway reaches the engine in cluster mode: an Aeron Cluster client on a thread of its own, between the
 * gateway's rings and the cluster. It takes the commands the gateway threads offer to the inbound ring, numbers them
 * (the gateway sequence), keeps each until the batch answering it arrives ({@link UnansweredCommands}) and offers them
 * to the leader; it publishes the events of each egress batch into the gateway's outbound ring, exactly as the
 * standalone matching step would have, and acknowledges the batches once the gateway thread has consumed (stored)
 * them. So the gateway itself is the same in both modes.
 *
 * <p>Exactly once across a leader change: when a new leader is announced (or an answer is overdue, or a batch number
 * is skipped) the link asks the cluster to resume its egress after the last batch it got, and offers every unanswered
 * command again; the cluster applies only the next sequence of each gateway, and batches it sends twice are dropped
 * here by their number. After a restart the link says hello: the cluster's welcome says where it stands, then the
 * books (for market data) and the batches never acknowledged follow; of those, only events the session stores lack
 * are published ({@link StoredOrigins}).
 *
 * <p>While no leader answers for {@code unavailableAfterMs}, {@link #available()} is false: the gateway refuses new
 * orders ("cluster unavailable") instead of queueing without bound; what it had taken is kept and sent when a leader
 * is back.
 *
 * <p>This class runs the link's duty cycle and the commands' way in; the rest has classes of its own: the cluster
 * session, the hello and the reconnects ({@link ClusterConnection}), reading the welcome and the books
 * ({@link WelcomeReader}), the egress batches into the outbound ring ({@link BatchPublisher}).
 */
public final class ClusterEngineLink implements EngineLink, Agent, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterEngineLink.class);
    private static final long ACK_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long GAP_RESUME_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final int TAKE_LIMIT = 256;
    /** Room for a command's record; a session's own message to number may be as long as the FIX maximum. */
    private static final int COMMAND_RECORD_BYTES = 1024;
    /** The longest the link stays silent: the cluster hears from it at least this often (see keepaliveNanos). */
    private static final long KEEPALIVE_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /**
     * The most commands in flight: past it the gateway's inbound ring fills and its reads pause (back-pressure to the
     * clients' sockets) instead of a queue of seconds forming in the cluster, every command of which a leader change
     * or a silence offers again (18,000 in flight under a loaded GatewayTakeoverTest). 45,000 orders/s answered
     * within 90 ms stay under it.
     */
    private static final int MAX_UNANSWERED = 4_096;
    /** A silent cluster is offered the unanswered commands again after resendAfterMs, then twice, ... 16 times that. */
    private static final int MAX_REOFFER_DOUBLINGS = 4;

    private final LinkSettings settings;
    private final InboundCommandRing inbound;
    private final OutboundEventRing outbound;
    private final UnansweredCommands unanswered;
    private final LinkStatus status = new LinkStatus();
    private final int maxRecord;
    private final UnsafeBuffer message;
    /** How often this gateway speaks through the log at least (a KEEPALIVE when nothing else is taken). */
    private final long keepaliveNanos;
    private long lastTakenNanos;
    private final MessageHandler onInboundRecord = this::onInboundRecord;
    /** The engine's view as the cluster sends it (halts, kill switches, book answers): this thread writes it. */
    private final EngineView view;
    /** The events the gateway's sessions get, counted as they pass (a node counts all of the engine's). */
    private final EngineCounters counters;
    private final WelcomeReader welcomes;
    private final BatchPublisher batches;
    private final ClusterConnection connection;
    private long startNanos = System.nanoTime();
    private volatile long joinNanos;
    /** Batches that arrived while connecting, before the gateway threads ran: published first. */
    private final ArrayDeque<byte[]> early = new ArrayDeque<>();
    private AgentRunner runner;
    private long nextSequence;
    private long highestOffered;
    private long lastAckSent;
    private long lastResumeNanos;
    /** Re-offers for silence in a row with no answer since (each waits twice as long as the one before). */
    private int quietReoffers;
    private long lastQuietReofferNanos;
    private boolean resumeNeeded;
    private long nowNanos;

    /** @param symbols the venue's symbol count (the view and the counters) */
    public ClusterEngineLink(LinkSettings settings, InboundCommandRing inbound, OutboundEventRing outbound,
                             int symbols) {
        this.settings = settings;
        this.inbound = inbound;
        this.outbound = outbound;
        this.unanswered = new UnansweredCommands(settings.unansweredBytes());
        this.view = EngineView.mirror(symbols);
        this.counters = new EngineCounters(symbols);
        this.welcomes = new WelcomeReader(view);
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(settings.gatewayTimeoutMs());
        this.keepaliveNanos = Math.min(KEEPALIVE_NS, timeoutNanos / 8);
        this.batches = new BatchPublisher(outbound, view, counters, unanswered, status, timeoutNanos * 3 / 4);
        this.maxRecord = Math.max(COMMAND_RECORD_BYTES, settings.maxMessageBytes() + SessionCodec.OUT_HEADER_LENGTH
            + UnansweredCommands.ENTRY_HEADER);
        this.message = new UnsafeBuffer(ByteBuffer.allocateDirect(Ingress.COMMAND_HEADER_LENGTH + maxRecord
            + Ingress.MAX_OWNERS * Integer.BYTES + 64));
        this.connection = new ClusterConnection(settings, status, new Listener(), welcomes);
    }

    /**
     * Before {@link #connect}: every market data record of the cluster's batches also goes to {@code ring}, in order
     * (the binary feed's publisher, docs/FEED.md, reads it on its own thread; each record carries its numbers).
     */
    public void marketDataRing(OutboundEventRing ring) {
        batches.marketData(ring);
    }

    /**
     * On the starting thread, before the gateway threads run: starts the embedded media driver, connects to the
     * cluster's leader (retrying until {@code connectTimeoutMs}), says hello and waits for the welcome and the books
     * ({@link Welcome#forEachRestingOrder}). Throws {@link ClusterUnavailableException} if no leader answered in time, or the
     * cluster refused this gateway (saying why).
     */
    public Welcome connect(StoredOrigins storedOrigins) {
        batches.origins(storedOrigins);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.connectTimeoutMs());
        try {
            connection.open(deadline);
        } catch (ClusterUnavailableException e) {
            close();
            throw e;
        }
        connection.sayHello();
        while (!welcomes.complete()) {
            nowNanos = System.nanoTime();
            connection.helloAgainIfUnanswered(nowNanos);
            if (connection.poll() == 0) {
                if (connection.refusal() != null) {
                    close();
                    throw new ClusterUnavailableException(connection.refusal(), null);
                }
                if (nowNanos > deadline) {
                    close();
                    throw new ClusterUnavailableException("the cluster did not welcome gateway "
                        + settings.gatewayId() + " within " + settings.connectTimeoutMs() + " ms", null);
                }
                Thread.onSpinWait();
            }
        }
        welcomes.joined();
        return welcomes.welcome();
    }

    /** Starts the link's thread (after {@link #connect}, once the gateway threads consume the outbound ring). */
    public void start(int cpu) {
        IdleStrategy idle = settings.idle().busySpin() ? new BusySpinIdleStrategy()
            : new WakeableBackoffIdleStrategy(() -> inbound.size() > 0,
                TimeUnit.MICROSECONDS.toNanos(settings.idle().maxParkMicros()));
        if (idle instanceof WakeableBackoffIdleStrategy wakeable) {
            inbound.consumerWaker(wakeable::wake);
        }
        runner = new AgentRunner(idle, error -> LOG.error("cluster link error", error), null, this);
        AgentRunner.startOnThread(runner, new CpuPinning("cluster-link", cpu));
    }

    @Override
    public void onStart() {
        while (!early.isEmpty()) {
            byte[] batch = early.poll();
            onBatch(new UnsafeBuffer(batch), 0, batch.length);
        }
        updateAvailability();
    }

    @Override
    public int doWork() {
        nowNanos = System.nanoTime();
        int work = connection.doWork(nowNanos);
        work += takeCommands();
        if (connection.state() == ClusterConnection.State.LIVE) {
            work += offerPending();
            work += housekeeping();
        }
        updateAvailability();
        return work;
    }

    /** Takes what the gateway threads offered, as far as there is room to keep it unanswered. */
    private int takeCommands() {
        int room = Math.min((settings.unansweredBytes() - unanswered.bytesHeld()) / maxRecord,
            MAX_UNANSWERED - unanswered.count());
        if (room <= 0) {
            return 0;
        }
        return inbound.read(onInboundRecord, Math.min(room, TAKE_LIMIT));
    }

    private void onInboundRecord(int type, MutableDirectBuffer buffer, int index, int length) {
        if (length + UnansweredCommands.ENTRY_HEADER > maxRecord
            || !unanswered.add(++nextSequence, nowNanos, type, buffer, index, length)) {
            throw new IllegalStateException("a command record of " + length + " bytes does not fit");
        }
        lastTakenNanos = nowNanos;
        status.unanswered = unanswered.count();
    }

    private int offerPending() {
        long storedThrough = batches.storedThrough();
        int work = 0;
        if (resumeNeeded) {
            int length = Ingress.encodeResume(message, 0, batches.lastEgress());
            if (!offer(length)) {
                return 0;
            }
            resumeNeeded = false;
            lastResumeNanos = nowNanos;
            status.resumes++;
            work++;
        }
        UnsafeBuffer kept = unanswered.buffer();
        while (unanswered.hasUnoffered()) {
            int entry = unanswered.next();
            long sequence = UnansweredCommands.sequence(kept, entry);
            int length = UnansweredCommands.length(kept, entry);
            Ingress.encodeCommandHeader(message, 0, UnansweredCommands.recordType(kept, entry), sequence,
                storedThrough);
            message.putBytes(Ingress.COMMAND_HEADER_LENGTH, kept, entry + UnansweredCommands.ENTRY_HEADER, length);
            if (!offer(Ingress.COMMAND_HEADER_LENGTH + length)) {
                break;
            }
            unanswered.offered();
            lastAckSent = storedThrough;
            if (sequence <= highestOffered) {
                status.reofferedCommands++;
            } else {
                highestOffered = sequence;
            }
            status.commandsSent++;
            work++;
        }
        return work;
    }

    private boolean offer(int length) {
        return connection.offer(message, length, nowNanos);
    }

    /** Acknowledgements when no command carries them, resends of overdue answers, keep-alives. */
    private int housekeeping() {
        long storedThrough = batches.storedThrough();
        if (storedThrough > lastAckSent && nowNanos - connection.lastSentNanos() > ACK_INTERVAL_NS) {
            if (offer(Ingress.encodeAck(message, 0, storedThrough))) {
                lastAckSent = storedThrough;
                return 1;
            }
        }
        long resendAfter = TimeUnit.MILLISECONDS.toNanos(settings.resendAfterMs());
        if (unanswered.count() > 0 && nowNanos - unanswered.oldestTakenNanos()
            > TimeUnit.MILLISECONDS.toNanos(settings.unavailableAfterMs()) && nowNanos - connection.lastHeardNanos()
            > TimeUnit.MILLISECONDS.toNanos(settings.unavailableAfterMs())) {
            // Nothing heard while commands wait, however often resumed: a leader that started in the election (after
            // every node was down, say) closes the sessions it finds and may not reach us to say so. Connect again:
            // the hello tells what the cluster applied, the rest is offered again.
            LOG.warn("no word from the cluster for {} ms with {} commands unanswered: connecting again",
                settings.unavailableAfterMs(), unanswered.count());
            connection.lost(nowNanos);
            return 1;
        }
        // Overdue and no answer for as long: lost (a leader change), not merely queued behind others (a busy cluster,
        // which answers on: offering thousands again would only feed the queue). A cluster still silent after a
        // re-offer may be chewing through the copies it was sent (a copy of an applied command gets no answer): each
        // further re-offer waits twice as long, so that a slow cluster is not fed copies faster than it drops them
        // (every 500 ms 16,700 copies through the log kept a cluster silent for good under GatewayTakeoverTest).
        if (quietReoffers > 0 && batches.answeredAtNanos() - lastQuietReofferNanos > 0) {
            quietReoffers = 0;
        }
        long wait = resendAfter << Math.min(quietReoffers, MAX_REOFFER_DOUBLINGS);
        if (unanswered.count() > 0 && nowNanos - unanswered.oldestTakenNanos() > wait
            && nowNanos - batches.answeredAtNanos() > wait && nowNanos - lastResumeNanos > wait) {
            LOG.warn("{} commands unanswered for over {} ms: asking the cluster to resume and offering them again",
                unanswered.count(), TimeUnit.NANOSECONDS.toMillis(wait));
            quietReoffers++;
            lastQuietReofferNanos = nowNanos;
            requestResume(true);
            return 1;
        }
        if (nowNanos - lastTakenNanos > keepaliveNanos
            && unanswered.add(++nextSequence, nowNanos, SessionCodec.KEEPALIVE, message, 0, 0)) {
            // Through the log, so the cluster knows this gateway lives (its sessions stay its own), and its answer
            // extends the write lease.
            lastTakenNanos = nowNanos;
            return 1;
        }
        connection.keepAliveIfQuiet(nowNanos);
        return 0;
    }

    private void requestResume(boolean reoffer) {
        resumeNeeded = true;
        lastResumeNanos = nowNanos;
        if (reoffer) {
            unanswered.rewind();
        }
    }

    private void updateAvailability() {
        boolean overdue = unanswered.count() > 0 && nowNanos - unanswered.oldestTakenNanos()
            > TimeUnit.MILLISECONDS.toNanos(settings.unavailableAfterMs());
        boolean available = connection.state() == ClusterConnection.State.LIVE && !overdue;
        if (available != status.available) {
            status.available = available;
            if (available) {
                LOG.info("cluster available: new orders are taken again");
            } else {
                LOG.warn("cluster unavailable (no leader answering for {} ms): new orders are refused until one"
                    + " does", settings.unavailableAfterMs());
            }
        }
    }

    // --- egress ---

    private void onWelcome(DirectBuffer buffer, int offset, int length) {
        int version = Egress.welcomeVersion(buffer, offset);
        if (!ProtocolVersion.accepts(version)) {
            refuseWelcome(version);
            return;
        }
        long lastApplied = Egress.welcomeLastApplied(buffer, offset);
        long lastEgressNumbered = Egress.welcomeLastEgress(buffer, offset);
        long oldestHeld = Egress.welcomeOldestHeld(buffer, offset);
        if (welcomes.read(buffer, offset, length, connection.leaderMemberId())) {
            nextSequence = lastApplied;
            highestOffered = lastApplied;
            batches.startAfter(lastApplied, oldestHeld, lastEgressNumbered);
            lastAckSent = oldestHeld - 1;
            LOG.info("welcomed by the cluster (leader {}): {} of this gateway's commands applied, egress batches {}"
                    + " to {} not acknowledged, {} messages of books", connection.leaderMemberId(), lastApplied,
                oldestHeld, lastEgressNumbered, Egress.welcomeSeedMessages(buffer, offset));
        } else {
            unanswered.answeredThrough(lastApplied);
            unanswered.rewind();
            long firstLost = batches.lastEgress() + 1;
            if (batches.passOverLost(oldestHeld)) {
                LOG.error("egress batches {} to {} were lost while this gateway was away (the cluster keeps {} bytes"
                    + " per gateway): reports in them are missing", firstLost, oldestHeld - 1,
                    settings.unansweredBytes());
            }
            LOG.info("welcomed again by the cluster (leader {}): offering {} unanswered commands again",
                connection.leaderMemberId(), unanswered.count());
        }
        // The batches the cluster no longer holds count as received: with none held (a gateway stopped cleanly has
        // acknowledged all) no batch comes to say so, and historyDelivered waits for this number.
        status.lastEgress = batches.lastEgress();
        connection.welcomed();
    }

    /**
     * A welcome of a protocol version this gateway does not accept: not taken (the link stays unavailable). Joining,
     * the start fails with the reason; later (the cluster upgraded under a running gateway), one ERROR line.
     */
    private void refuseWelcome(int version) {
        String why = "protocol version: the cluster (leader node " + connection.leaderMemberId() + ") speaks version "
            + version + (version == 0 ? " (a release before versions)" : "") + ", gateway " + settings.gatewayId()
            + " version " + ProtocolVersion.CURRENT + " (it accepts " + ProtocolVersion.accepted() + "): gateways and"
            + " nodes must be of releases of one protocol version (docs/OPERATIONS.md, Upgrades)";
        if (runner != null && !why.equals(connection.refusal())) {
            LOG.error("gateway {} refuses the cluster's welcome: {}", settings.gatewayId(), why);
        }
        connection.refused(why);
    }

    private void onBatch(DirectBuffer buffer, int offset, int length) {
        if (!batches.publish(buffer, offset, length, nowNanos)
            && nowNanos - lastResumeNanos > GAP_RESUME_INTERVAL_NS) {
            requestResume(false);
        }
    }

    /** A resend's answer: its records go to the gateway thread as they are, in order with the batches. */
    private void onResent(DirectBuffer buffer, int offset, int length) {
        if (runner == null) {
            return; // before the gateway runs: no session is logged on to have asked
        }
        int end = offset + length;
        for (int at = offset + Egress.RESENT_HEADER_LENGTH; at < end; ) {
            int recordLength = Egress.recordLength(buffer, at);
            outbound.publishRecord(Egress.recordType(buffer, at), buffer, at + Egress.RECORD_HEADER_LENGTH,
                recordLength);
            at += Egress.RECORD_HEADER_LENGTH + recordLength;
        }
        outbound.wakeConsumer();
    }

    /** Any thread: the cluster's gateways and who holds each session, as it last said. */
    public GatewayDirectory directory() {
        return batches.directory();
    }

    private final class Listener implements EgressListener {
        @Override
        public void onMessage(long clusterSessionId, long timestamp, DirectBuffer buffer, int offset, int length,
                              Header header) {
            connection.heard(nowNanos);
            switch (Egress.type(buffer, offset)) {
                case Egress.BATCH -> {
                    if (runner == null) {
                        byte[] copy = new byte[length];
                        buffer.getBytes(offset, copy);
                        early.add(copy);
                    } else {
                        onBatch(buffer, offset, length);
                    }
                }
                case Egress.RESENT -> onResent(buffer, offset, length);
                case Egress.WELCOME -> onWelcome(buffer, offset, length);
                case Egress.SEED -> welcomes.onSeed(buffer, offset, length);
                case Egress.REFUSED -> {
                    String refusal = Egress.refusedText(buffer, offset);
                    connection.refused("the cluster refused gateway " + settings.gatewayId() + ": " + refusal);
                    LOG.error("the cluster refused this gateway: {}", refusal);
                }
                default -> LOG.warn("egress message of unknown type {}", Egress.type(buffer, offset));
            }
        }

        @Override
        public void onSessionEvent(long correlationId, long clusterSessionId, long leadershipTermId,
                                   int leaderMemberId, EventCode code, String detail) {
            if (code != EventCode.OK) {
                LOG.warn("cluster session event {}: {}", code, detail);
            }
        }

        @Override
        public void onNewLeader(long clusterSessionId, long leadershipTermId, int leaderMemberId,
                                String ingressEndpoints) {
            connection.heard(nowNanos);
            LOG.info("new cluster leader: node {} (term {}); resuming egress after batch {} and offering {}"
                + " unanswered commands again", leaderMemberId, leadershipTermId, batches.lastEgress(),
                unanswered.count());
            status.leaderMemberId = leaderMemberId;
            status.leadershipTermId = leadershipTermId;
            status.leaderChanges++;
            if (connection.state() == ClusterConnection.State.WELCOMING) {
                connection.helloAgain();
            } else {
                requestResume(true);
            }
        }
    }

    /** Any thread: whether new orders are taken (see the class comment). */
    @Override
    public boolean available() {
        return status.available;
    }

    @Override
    public InboundCommandRing inbound() {
        return inbound;
    }

    /** The one gateway thread's ring (a cluster gateway runs one gateway thread; more gateways, more processes). */
    @Override
    public OutboundEventRing outbound(int gateway) {
        if (gateway != 0) {
            throw new IllegalArgumentException("a cluster gateway has one gateway thread");
        }
        return outbound;
    }

    @Override
    public EngineView view() {
        return view;
    }

    @Override
    public EngineCounters counters() {
        return counters;
    }

    /** How long joining the cluster took: from this link's creation to the history consumed. */
    @Override
    public long recoveryNanos() {
        return joinNanos;
    }

    /** Egress batches received again on joining (unacknowledged before this gateway's start). */
    @Override
    public long recoveredCommands() {
        return batches.historyBatches();
    }

    public LinkStatus status() {
        return status;
    }

    /** Whether every batch held back when it connected has been consumed by the gateway thread. */
    public boolean historyDelivered() {
        Welcome welcome = welcomes.welcome();
        boolean delivered = welcome != null && status.lastEgress >= welcome.lastEgress()
            && outbound.consumerPosition() >= outbound.producerPosition();
        if (delivered && joinNanos == 0) {
            joinNanos = System.nanoTime() - startNanos;
        }
        return delivered;
    }

    /** Whether everything taken has been answered and nothing waits in the inbound ring (a clean stop waits). */
    public boolean quiet() {
        return inbound.size() == 0 && status.unanswered == 0;
    }

    @Override
    public String roleName() {
        return "cluster-link";
    }

    @Override
    public void onClose() {
        connection.close();
        status.available = false;
    }

    @Override
    public void close() {
        if (runner != null) {
            runner.close();
        } else {
            onClose();
        }
        connection.closeDriver();
    }
}
