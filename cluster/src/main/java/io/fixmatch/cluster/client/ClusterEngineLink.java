package io.fixmatch.cluster.client;

import io.aeron.Publication;
import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.client.EgressListener;
import io.aeron.cluster.codecs.EventCode;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.exceptions.AeronException;
import io.aeron.logbuffer.Header;
import io.fixmatch.cluster.protocol.Egress;
import io.fixmatch.cluster.protocol.GatewayDirectory;
import io.fixmatch.cluster.protocol.GatewayProcess;
import io.fixmatch.cluster.protocol.Ingress;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.codec.EventCodec;
import io.fixmatch.engine.codec.SessionCodec;
import io.fixmatch.engine.loop.CommandTrace;
import io.fixmatch.engine.loop.CpuPinning;
import io.fixmatch.engine.loop.EngineLink;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.engine.loop.WakeableBackoffIdleStrategy;
import io.fixmatch.engine.matching.EngineView;
import io.fixmatch.engine.metrics.EngineCounters;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.LongArrayList;
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
import java.util.HashMap;
import java.util.Map;
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
 */
public final class ClusterEngineLink implements EngineLink, Agent, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterEngineLink.class);
    private static final long KEEPALIVE_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /** This process: a restart says hello with another (its sessions' connections are gone). */
    private static final long INCARNATION = System.currentTimeMillis() << 16 ^ ProcessHandle.current().pid();
    private static final long ACK_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long GAP_RESUME_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long RECONNECT_PAUSE_NS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long HELLO_AGAIN_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int TAKE_LIMIT = 256;
    /** Room for a command's record; a session's own message to number may be as long as the FIX maximum. */
    private static final int COMMAND_RECORD_BYTES = 1024;

    private enum State { CONNECTING, WELCOMING, LIVE, CLOSED }

    private final LinkSettings settings;
    private final InboundCommandRing inbound;
    private final OutboundEventRing outbound;
    private final UnansweredCommands unanswered;
    private final EgressAcknowledgements acks = new EgressAcknowledgements();
    private final LinkStatus status = new LinkStatus();
    private final int maxRecord;
    private final UnsafeBuffer message;
    private final ExecutionEvent historyEvent = new ExecutionEvent();
    /** How often this gateway speaks through the log at least (a KEEPALIVE when nothing else is taken). */
    private final long keepaliveNanos;
    /** How long after it last spoke (a command taken, answered since) this gateway may write for its sessions. */
    private final long leaseNanos;
    private long lastTakenNanos;
    private final UnsafeBuffer leaseRecord = new UnsafeBuffer(new byte[SessionCodec.LEASE_LENGTH]);
    /** The cluster's gateways and who holds each session, as it last said (the admin endpoint reads it). */
    private volatile GatewayDirectory directory = GatewayDirectory.EMPTY;
    private final MessageHandler onInboundRecord = this::onInboundRecord;
    private final Listener listener = new Listener();
    /** The engine's view as the cluster sends it (halts, kill switches, book answers): this thread writes it. */
    private final EngineView view;
    /** The events the gateway's sessions get, counted as they pass (a node counts all of the engine's). */
    private final EngineCounters counters;
    private final ExecutionEvent countedEvent = new ExecutionEvent();
    private long lastAnswered;
    /** When the cluster last answered a command (System.nanoTime). */
    private long lastAnswerNanos;
    private long startNanos = System.nanoTime();
    private volatile long joinNanos;
    private volatile long historyBatches;
    /** Batches that arrived while connecting, before the gateway threads ran: published first. */
    private final ArrayDeque<byte[]> early = new ArrayDeque<>();
    private MediaDriver driver;
    private AeronCluster client;
    private AeronCluster.AsyncConnect connecting;
    private long reconnectAtNanos;
    private AgentRunner runner;
    private StoredOrigins origins = StoredOrigins.NONE;
    /**
     * The books and calls as the welcome's SEED messages give them: symbol, kind (a side, or a call's indicative
     * uncross), price, quantity per entry.
     */
    private final LongArrayList seedEntries = new LongArrayList();
    private State state = State.CONNECTING;
    private boolean firstConnect = true;
    private Welcome welcome;
    private String refusal;
    private int seedsToReceive;
    private long nextSequence;
    private long highestOffered;
    private long lastEgress;
    private long historyThrough;
    private long lastAckSent;
    private long lastSentNanos;
    private long lastResumeNanos;
    private boolean resumeNeeded;
    private long helloSentNanos;
    /** When anything last came from the cluster on egress. */
    private long lastHeardNanos = System.nanoTime();
    private boolean helloAgain;
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
        this.maxRecord = Math.max(COMMAND_RECORD_BYTES, settings.maxMessageBytes() + SessionCodec.OUT_HEADER_LENGTH
            + UnansweredCommands.ENTRY_HEADER);
        this.message = new UnsafeBuffer(ByteBuffer.allocateDirect(Ingress.COMMAND_HEADER_LENGTH + maxRecord
            + Ingress.MAX_OWNERS * Integer.BYTES + 64));
        this.keepaliveNanos = Math.min(KEEPALIVE_NS, TimeUnit.MILLISECONDS.toNanos(settings.gatewayTimeoutMs()) / 8);
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(settings.gatewayTimeoutMs()) * 3 / 4;
    }

    /**
     * On the starting thread, before the gateway threads run: starts the embedded media driver, connects to the
     * cluster's leader (retrying until {@code connectTimeoutMs}), says hello and waits for the welcome and the books
     * ({@link Welcome#forEachRestingOrder}). Throws {@link ClusterUnavailableException} if no leader answered in time, or the
     * cluster refused this gateway (saying why).
     */
    public Welcome connect(StoredOrigins storedOrigins) {
        this.origins = storedOrigins;
        driver = MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(settings.aeronDirectory().toString())
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(idleStrategy())
            .termBufferSparseFile(true)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .errorHandler(error -> LOG.error("gateway media driver: {}", error.toString(), error)));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.connectTimeoutMs());
        while (client == null) {
            try {
                client = AeronCluster.connect(clientContext());
            } catch (AeronException e) {
                if (System.nanoTime() > deadline) {
                    close();
                    throw new ClusterUnavailableException("no cluster leader answered at "
                        + settings.members().ingressEndpoints() + " within " + settings.connectTimeoutMs() + " ms: "
                        + e.getMessage(), e);
                }
                LOG.info("waiting for the cluster ({}): {}", settings.members().ingressEndpoints(), e.getMessage());
            }
        }
        sayHello();
        while (welcome == null || seedsToReceive > 0) {
            nowNanos = System.nanoTime();
            helloAgainIfUnanswered();
            if (client.pollEgress() == 0) {
                if (refusal != null) {
                    close();
                    throw new ClusterUnavailableException("the cluster refused gateway " + settings.gatewayId() + ": "
                        + refusal, null);
                }
                if (nowNanos > deadline) {
                    close();
                    throw new ClusterUnavailableException("the cluster did not welcome gateway "
                        + settings.gatewayId() + " within " + settings.connectTimeoutMs() + " ms", null);
                }
                Thread.onSpinWait();
            }
        }
        firstConnect = false;
        return welcome;
    }

    /** A hello the cluster did not answer (a leader change swallowed it, or its answer): said again. */
    private void helloAgainIfUnanswered() {
        if (state == State.WELCOMING && (helloAgain || nowNanos - helloSentNanos > HELLO_AGAIN_NS)) {
            LOG.info("no welcome yet from the cluster: saying hello again");
            sayHello();
        }
    }

    private AeronCluster.Context clientContext() {
        return new AeronCluster.Context()
            .aeronDirectoryName(settings.aeronDirectory().toString())
            .ingressChannel("aeron:udp?term-length=4m")
            .ingressEndpoints(settings.members().ingressEndpoints())
            .egressChannel("aeron:udp?endpoint=" + settings.egressHost() + ":0|term-length=4m")
            .egressListener(listener)
            .messageTimeoutNs(TimeUnit.SECONDS.toNanos(2))
            .idleStrategy(idleStrategy());
    }

    private IdleStrategy idleStrategy() {
        return settings.idle().newStrategy();
    }

    private void sayHello() {
        int length = Ingress.encodeHello(message, 0, settings.gatewayId(), settings.fingerprint(),
            settings.owners(), new GatewayProcess(INCARNATION, ProcessHandle.current().pid(), settings.fixPort(),
                settings.adminPort()));
        long result;
        while ((result = client.offer(message, 0, length)) < 0) {
            if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
                throw new ClusterUnavailableException("the cluster's ingress closed while saying hello", null);
            }
            client.pollEgress();
            Thread.onSpinWait();
        }
        state = State.WELCOMING;
        status.state = state.name();
        lastSentNanos = System.nanoTime();
        helloSentNanos = lastSentNanos;
        helloAgain = false;
        seedsToReceive = 0;
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
        int work = 0;
        if (state == State.CONNECTING) {
            work += reconnect();
        } else if (client != null) {
            helloAgainIfUnanswered();
            work += client.pollEgress();
            if (client.isClosed()) {
                lostSession();
            }
        }
        work += takeCommands();
        if (state == State.LIVE) {
            work += offerPending();
            work += housekeeping();
        }
        updateAvailability();
        return work;
    }

    private void lostSession() {
        LOG.warn("this gateway's cluster session is lost (no leader for too long, or a new leader closed it):"
            + " connecting again");
        CloseHelper.quietClose(client);
        client = null;
        state = State.CONNECTING;
        status.state = state.name();
        status.reconnects++;
        reconnectAtNanos = nowNanos;
        lastHeardNanos = nowNanos;
    }

    private int reconnect() {
        if (connecting == null) {
            if (nowNanos < reconnectAtNanos) {
                return 0;
            }
            connecting = AeronCluster.asyncConnect(clientContext());
        }
        try {
            AeronCluster connected = connecting.poll();
            if (connected == null) {
                return 0;
            }
            connecting = null;
            client = connected;
            sayHello();
            LOG.info("connected to the cluster again (leader {}); said hello", client.leaderMemberId());
            return 1;
        } catch (AeronException e) {
            CloseHelper.quietClose(connecting);
            connecting = null;
            reconnectAtNanos = nowNanos + RECONNECT_PAUSE_NS;
            return 0;
        }
    }

    /** Takes what the gateway threads offered, as far as there is room to keep it unanswered. */
    private int takeCommands() {
        int room = (settings.unansweredBytes() - unanswered.bytesHeld()) / maxRecord;
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
        long storedThrough = acks.storedThrough(outbound.consumerPosition());
        int work = 0;
        if (resumeNeeded) {
            int length = Ingress.encodeResume(message, 0, lastEgress);
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
        long result = client.offer(message, 0, length);
        if (result > 0) {
            lastSentNanos = nowNanos;
            return true;
        }
        status.backPressured++;
        return false;
    }

    /** Acknowledgements when no command carries them, resends of overdue answers, keep-alives. */
    private int housekeeping() {
        long storedThrough = acks.storedThrough(outbound.consumerPosition());
        if (storedThrough > lastAckSent && nowNanos - lastSentNanos > ACK_INTERVAL_NS) {
            if (offer(Ingress.encodeAck(message, 0, storedThrough))) {
                lastAckSent = storedThrough;
                return 1;
            }
        }
        long resendAfter = TimeUnit.MILLISECONDS.toNanos(settings.resendAfterMs());
        if (unanswered.count() > 0 && nowNanos - unanswered.oldestTakenNanos()
            > TimeUnit.MILLISECONDS.toNanos(settings.unavailableAfterMs()) && nowNanos - lastHeardNanos
            > TimeUnit.MILLISECONDS.toNanos(settings.unavailableAfterMs())) {
            // Nothing heard while commands wait, however often resumed: a leader that started in the election (after
            // every node was down, say) closes the sessions it finds and may not reach us to say so. Connect again:
            // the hello tells what the cluster applied, the rest is offered again.
            LOG.warn("no word from the cluster for {} ms with {} commands unanswered: connecting again",
                settings.unavailableAfterMs(), unanswered.count());
            lostSession();
            return 1;
        }
        // Overdue and no answer for as long: lost (a leader change), not merely queued behind others (a busy cluster,
        // which answers on: offering thousands again would only feed the queue).
        if (unanswered.count() > 0 && nowNanos - unanswered.oldestTakenNanos() > resendAfter
            && nowNanos - lastAnswerNanos > resendAfter && nowNanos - lastResumeNanos > resendAfter) {
            LOG.warn("{} commands unanswered for over {} ms: asking the cluster to resume and offering them again",
                unanswered.count(), settings.resendAfterMs());
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
        if (nowNanos - lastSentNanos > KEEPALIVE_NS && client.sendKeepAlive()) {
            lastSentNanos = nowNanos;
        }
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
        boolean available = state == State.LIVE && !overdue;
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
        long lastApplied = Egress.welcomeLastApplied(buffer, offset);
        long lastEgressNumbered = Egress.welcomeLastEgress(buffer, offset);
        long oldestHeld = Egress.welcomeOldestHeld(buffer, offset);
        int seedMessages = Egress.welcomeSeedMessages(buffer, offset);
        int controls = Egress.welcomeControlCount(buffer, offset);
        Map<Integer, Long> positions = new HashMap<>();
        Map<Integer, long[]> sessionControls = new HashMap<>();
        for (int i = 0; i < Egress.welcomeOwnerCount(buffer, offset); i++) {
            int at = Egress.welcomeOwnerAt(buffer, offset, i);
            int owner = buffer.getInt(at, Egress.ORDER);
            positions.put(owner, buffer.getLong(at + Integer.BYTES, Egress.ORDER));
            long[] values = new long[controls];
            for (int c = 0; c < controls; c++) {
                values[c] = buffer.getLong(at + Integer.BYTES + Long.BYTES + c * Long.BYTES, Egress.ORDER);
            }
            sessionControls.put(owner, values);
        }
        long[] referencePrices = new long[Egress.welcomeSymbolCount(buffer, offset)];
        int pricesAt = Egress.welcomeReferencePricesAt(buffer, offset);
        for (int i = 0; i < referencePrices.length; i++) {
            referencePrices[i] = buffer.getLong(pricesAt + i * Long.BYTES, Egress.ORDER);
        }
        int viewAt = Egress.welcomeViewAt(buffer, offset);
        view.apply(buffer, viewAt + Integer.BYTES);
        if (firstConnect) {
            seedEntries.clear();
            welcome = new Welcome(lastApplied, lastEgressNumbered, oldestHeld, Map.copyOf(positions),
                Map.copyOf(sessionControls), referencePrices,
                SymbolSettings.decode(buffer, offset, length, referencePrices.length), client.leaderMemberId(),
                seedEntries);
            nextSequence = lastApplied;
            highestOffered = lastApplied;
            lastAnswered = lastApplied;
            lastEgress = oldestHeld - 1;
            historyThrough = lastEgressNumbered;
            acks.startAfter(oldestHeld - 1);
            lastAckSent = oldestHeld - 1;
            seedsToReceive = seedMessages;
            LOG.info("welcomed by the cluster (leader {}): {} of this gateway's commands applied, egress batches {}"
                    + " to {} not acknowledged, {} messages of books", client.leaderMemberId(), lastApplied,
                oldestHeld, lastEgressNumbered, seedMessages);
        } else {
            seedsToReceive = -seedMessages; // skipped: this gateway's books followed the cluster's all along
            unanswered.answeredThrough(lastApplied);
            unanswered.rewind();
            if (oldestHeld > lastEgress + 1) {
                LOG.error("egress batches {} to {} were lost while this gateway was away (the cluster keeps {} bytes"
                    + " per gateway): reports in them are missing", lastEgress + 1, oldestHeld - 1,
                    settings.unansweredBytes());
                lastEgress = oldestHeld - 1;
            }
            LOG.info("welcomed again by the cluster (leader {}): offering {} unanswered commands again",
                client.leaderMemberId(), unanswered.count());
        }
        // The batches the cluster no longer holds count as received: with none held (a gateway stopped cleanly has
        // acknowledged all) no batch comes to say so, and historyDelivered waits for this number.
        status.lastEgress = lastEgress;
        state = State.LIVE;
        status.state = state.name();
        status.leaderMemberId = client.leaderMemberId();
    }

    private void onSeed(DirectBuffer buffer, int offset, int length) {
        if (seedsToReceive < 0) {
            seedsToReceive++;
            return;
        }
        for (int i = 0; i < Egress.seedEntries(length); i++) {
            seedEntries.addLong(Egress.seedSymbol(buffer, offset, i));
            seedEntries.addLong(Egress.seedKind(buffer, offset, i));
            seedEntries.addLong(Egress.seedPrice(buffer, offset, i));
            seedEntries.addLong(Egress.seedQuantity(buffer, offset, i));
        }
        seedsToReceive--;
    }

    private void onBatch(DirectBuffer buffer, int offset, int length) {
        long sequence = Egress.batchEgressSequence(buffer, offset);
        if (sequence <= lastEgress) {
            status.duplicateBatches++;
            return;
        }
        if (sequence > lastEgress + 1) {
            status.gaps++;
            if (nowNanos - lastResumeNanos > GAP_RESUME_INTERVAL_NS) {
                requestResume(false);
            }
            return;
        }
        boolean history = sequence <= historyThrough;
        if (history) {
            historyBatches++;
        }
        int end = offset + length;
        for (int at = offset + Egress.BATCH_HEADER_LENGTH; at < end; ) {
            int type = Egress.recordType(buffer, at);
            int recordLength = Egress.recordLength(buffer, at);
            int record = at + Egress.RECORD_HEADER_LENGTH;
            if (type == Egress.VIEW_RECORD) {
                view.apply(buffer, record);
            } else if (type == Egress.DIRECTORY_RECORD) {
                directory = GatewayDirectory.decode(buffer, record);
            } else if (!history || storesLack(type, buffer, record)) {
                count(type, buffer, record);
                outbound.publishRecord(type, buffer, record, recordLength);
            }
            at = record + recordLength;
        }
        lastEgress = sequence;
        status.lastEgress = sequence;
        acks.published(sequence, outbound.producerPosition());
        outbound.wakeConsumer();
        long answered = Egress.batchAnswered(buffer, offset);
        if (answered > lastAnswered) {
            for (long i = lastAnswered; i < answered; i++) {
                counters.commandProcessed();
            }
            lastAnswered = answered;
            lastAnswerNanos = nowNanos;
            long spokeNanos = unanswered.answeredThrough(answered);
            status.unanswered = unanswered.count();
            if (spokeNanos != 0) {
                // After this batch's records (a session taken away among them), in the ring's order: the gateway
                // thread writes for its sessions until then, and not after unless the cluster answers again.
                SessionCodec.encodeLease(leaseRecord, 0, spokeNanos + leaseNanos);
                outbound.publishRecord(SessionCodec.LEASE, leaseRecord, 0, SessionCodec.LEASE_LENGTH);
            }
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
        return directory;
    }

    private void count(int type, DirectBuffer buffer, int record) {
        if (type == OutboundEventRing.EVENT) {
            EventCodec.decode(buffer, record, countedEvent);
            counters.onEvent(countedEvent);
        } else if (type == OutboundEventRing.TRACED_EVENT) {
            EventCodec.decode(buffer, record + CommandTrace.OUTBOUND_LENGTH, countedEvent);
            counters.onEvent(countedEvent);
        }
    }

    /** A batch sent again after a restart: its market data is older than the books just seeded; its reports may be
     * in the stores already. */
    private boolean storesLack(int type, DirectBuffer buffer, int record) {
        switch (type) {
            case OutboundEventRing.EVENT -> EventCodec.decode(buffer, record, historyEvent);
            case OutboundEventRing.TRACED_EVENT -> EventCodec.decode(buffer, record + CommandTrace.OUTBOUND_LENGTH,
                historyEvent);
            case OutboundEventRing.COPY -> {
                EventCodec.decode(buffer, record + Long.BYTES, historyEvent);
                return !origins.holds((int) buffer.getLong(record), historyEvent.journalPosition(),
                    historyEvent.ordinal());
            }
            default -> {
                return false;
            }
        }
        return !origins.holds(historyEvent.owner(), historyEvent.journalPosition(), historyEvent.ordinal());
    }

    private final class Listener implements EgressListener {
        @Override
        public void onMessage(long clusterSessionId, long timestamp, DirectBuffer buffer, int offset, int length,
                              Header header) {
            lastHeardNanos = nowNanos;
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
                case Egress.SEED -> onSeed(buffer, offset, length);
                case Egress.REFUSED -> {
                    refusal = Egress.refusedText(buffer, offset);
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
            lastHeardNanos = nowNanos;
            LOG.info("new cluster leader: node {} (term {}); resuming egress after batch {} and offering {}"
                + " unanswered commands again", leaderMemberId, leadershipTermId, lastEgress, unanswered.count());
            status.leaderMemberId = leaderMemberId;
            status.leadershipTermId = leadershipTermId;
            status.leaderChanges++;
            if (state == State.WELCOMING) {
                helloAgain = true;
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
        return historyBatches;
    }

    public LinkStatus status() {
        return status;
    }

    /** Whether every batch held back when it connected has been consumed by the gateway thread. */
    public boolean historyDelivered() {
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
        state = State.CLOSED;
        status.state = state.name();
        status.available = false;
        CloseHelper.quietClose(connecting);
        CloseHelper.quietClose(client);
    }

    @Override
    public void close() {
        if (runner != null) {
            runner.close();
        } else {
            onClose();
        }
        CloseHelper.quietClose(driver);
    }
}
