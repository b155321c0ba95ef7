package io.fixmatch.fix.gateway;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.loop.ConsumerWakeup;
import io.fixmatch.engine.loop.CpuPinning;
import io.fixmatch.engine.loop.InboundCommandRing;
import io.fixmatch.engine.loop.MatchingRuntime;
import io.fixmatch.engine.loop.OutboundEventRing;
import io.fixmatch.fix.app.SymbolTable;
import io.fixmatch.fix.marketdata.MarketDataFeed;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionRegistry;
import io.fixmatch.fix.session.SessionTransport;
import net.openhft.affinity.AffinityLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * One gateway thread and everything it owns: a fixed share of the sessions (their state, stores and timers), the
 * connections bound to them, the outbound ring of their events, the commands it still owes the engine. Its
 * {@link #doWork() duty cycle} runs at the top of every iteration of its event loop (see the transport's
 * {@code DutyCycle}); the event loop reads the sockets between cycles, on the same thread. Nothing here is locked:
 * whatever another thread wants done to a session is {@link #submit submitted} to this one.
 *
 * <p>In the one-thread layout the gateway also runs the matching step inline ({@link #runMatchingInline}): then one
 * thread owns every session and every book and nothing ever crosses threads.
 */
public final class Gateway {
    private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);
    /** Events taken from the outbound ring per cycle (the rest waits for the next cycle, a few microseconds). */
    static final int DRAIN_BATCH = 1024;
    /** How long a sleeping gateway's wait may last: it wakes to run its timers. */
    private static final long TIMER_WAKE_MS = 10;
    private static final Runnable WAKE = () -> { };

    private final int index;
    private final int cpu;
    private final String name;
    private final OutboundEventRing outbound;
    private final PendingCommands pending;
    private final LatencyStages stages = new LatencyStages();
    private final ReportWriter reports;
    private final MarketDataFeed marketData;
    private final RefusalCopies refusalCopies;
    private final List<FixSession> sessions = new ArrayList<>();
    private final List<GatewayConnection> connections = new ArrayList<>();
    private final List<GatewayConnection> pausedReaders = new ArrayList<>();
    private final List<LongConsumer> timers = new ArrayList<>();
    private final InboundCommandRing inbound;
    private final SessionRegistry registry;
    private final SymbolTable symbols;
    private SessionTransport[] dirty = new SessionTransport[16];
    private int dirtyCount;
    private MatchingRuntime inlineMatching;
    /** Cluster-owned sessions: writes only while the cluster's lease holds (null: standalone, always). */
    private WriteLease writeLease;
    private ConsumerWakeup wakeup;
    private ScheduledExecutorService loop;
    private AffinityLock cpuLock;
    private long nowMs;
    private long lastTimerMs;
    private int ioWork;
    private boolean started;
    private boolean stopped;
    private long cycles;
    private long cycleFailures;
    private volatile long connectionsMovedIn;
    private volatile int openConnections;
    private volatile AssertionError lastAssertionFailure;

    /**
     * @param index    this gateway's number, 0 .. gateways - 1
     * @param cpu      the CPU to pin its thread to, or -1
     * @param outbound the ring of the events of its sessions
     * @param pending  where its sessions' order entry keeps the commands it owes the engine
     */
    public Gateway(int index, int cpu, SessionRegistry registry, SymbolTable symbols, InboundCommandRing inbound,
                   OutboundEventRing outbound, PendingCommands pending) {
        this(index, cpu, registry, symbols, inbound, outbound, pending, null, null);
    }

    /**
     * @param marketData    the market data of its sessions (null: the venue offers none)
     * @param refusalCopies its copies of refusals, whose inbox it drains (null: no drop-copy sessions)
     */
    public Gateway(int index, int cpu, SessionRegistry registry, SymbolTable symbols, InboundCommandRing inbound,
                   OutboundEventRing outbound, PendingCommands pending, MarketDataFeed marketData,
                   RefusalCopies refusalCopies) {
        this.marketData = marketData;
        this.refusalCopies = refusalCopies;
        this.inbound = inbound;
        this.index = index;
        this.cpu = cpu;
        this.name = "gateway-" + index;
        this.outbound = outbound;
        this.pending = pending;
        this.reports = new ReportWriter(outbound, registry, symbols, stages, sessions, marketData);
        this.registry = registry;
        this.symbols = symbols;
    }

    /**
     * Before start, a gateway of a cluster that owns the sessions: it writes their bytes under the cluster's
     * {@link WriteLease}, and their records (grants, numbered messages, resends) reach them.
     */
    public void sessionsOwnedByCluster(int maxMessageSize) {
        if (started) {
            throw new IllegalStateException("set before the gateway starts");
        }
        writeLease = new WriteLease();
        reports.clusterRecords(new ClusterSessionRecords(registry, symbols, writeLease, maxMessageSize));
    }

    /** Before start: this gateway owns {@code session} from now on. */
    public void own(FixSession session) {
        if (started) {
            throw new IllegalStateException("sessions are assigned before the gateway starts");
        }
        sessions.add(session);
    }

    /**
     * Before start: {@code timer} runs on this gateway's thread with its timers, about once per millisecond, given
     * the cycle's wall clock (ms); it may submit commands through {@link #pendingCommands()}.
     */
    public void addTimer(LongConsumer timer) {
        if (started) {
            throw new IllegalStateException("timers are added before the gateway starts");
        }
        timers.add(timer);
    }

    /** Before start: the engine is a cluster's; traced round trips count its way in as replication. */
    public void engineReplicated() {
        stages.replicated();
    }

    /** Gateway thread: whether its sessions' bytes may be written now (always, but under a lease run out). */
    public boolean mayWrite() {
        return writeLease == null || writeLease.allows(System.nanoTime());
    }

    /** The lease this gateway writes under, or null (standalone). */
    public WriteLease writeLease() {
        return writeLease;
    }

    /** Whether this gateway's cycle runs the matching step (one-thread layout; set before its loop starts). */
    boolean matchesInline() {
        return inlineMatching != null;
    }

    /** Before start, one-thread layout: this gateway's cycle runs the matching step (and drains when its ring is full). */
    public void runMatchingInline(MatchingRuntime runtime) {
        inlineMatching = runtime;
        outbound.drainWhenFull(this::drainAndFlush);
    }

    /**
     * Before start: binds the gateway to its event loop. Unless the gateway runs the matching step itself, the
     * matching thread wakes it through {@code loop.execute(no-op)} when it announced a sleep (see
     * {@link ConsumerWakeup}); a periodic no-op bounds every sleep so the timers run.
     */
    public void attach(ScheduledExecutorService eventLoop) {
        loop = eventLoop;
        if (inlineMatching == null) {
            wakeup = new ConsumerWakeup(() -> eventLoop.execute(WAKE));
            outbound.consumerWakeup(wakeup);
        }
        if (refusalCopies != null) {
            // Other gateways wake this one through their own announcement, so the matching thread's stays its own.
            refusalCopies.consumerWakeup(new ConsumerWakeup(() -> eventLoop.execute(WAKE)));
        }
        eventLoop.scheduleAtFixedRate(WAKE, TIMER_WAKE_MS, TIMER_WAKE_MS, TimeUnit.MILLISECONDS);
    }

    /** On the gateway's thread, first thing: names and pins it, and takes the sessions over. */
    void onThreadStart() {
        started = true;
        Thread.currentThread().setName(name);
        cpuLock = CpuPinning.pinCurrentThread(name, cpu);
        for (FixSession session : sessions) {
            session.claimOwnership();
        }
        nowMs = System.currentTimeMillis();
        LOG.info("{} owns sessions {}{}", name, sessions.stream().map(FixSession::name).toList(),
            inlineMatching != null ? " and runs the matching step" : "");
    }

    /**
     * One duty cycle: read the clock, run the matching step (one-thread layout), turn waiting events into reports,
     * offer the commands still owed to the engine, run the timers (once per millisecond), write what was queued to
     * the sockets. Returns the amount of work done (0: idle).
     */
    public int doWork() {
        if (!started) {
            onThreadStart();
        }
        cycles++;
        nowMs = System.currentTimeMillis();
        int work = ioWork;
        ioWork = 0;
        if (stopped) {
            return work;
        }
        if (inlineMatching != null) {
            work += matchInline();
        }
        work += reports.drain(DRAIN_BATCH, nowMs);
        work += pending.retry();
        if (refusalCopies != null) {
            work += refusalCopies.drain(DRAIN_BATCH, nowMs);
        }
        if (marketData != null) {
            work += marketData.catchUp(nowMs);
        }
        if (!pausedReaders.isEmpty() && !inbound.congested()) {
            resumeReaders();
        }
        if (nowMs != lastTimerMs) {
            lastTimerMs = nowMs;
            runTimers();
        }
        work += flush();
        return work;
    }

    /** A cycle threw: a bug or a failing store. Logged (the first, then every 1000th); the next cycle goes on. */
    void onCycleFailure(Throwable failure) {
        if (cycleFailures++ % 1000 == 0) {
            LOG.error("{}: duty cycle failed ({} so far)", name, cycleFailures, failure);
        }
        if (failure instanceof AssertionError assertion) {
            lastAssertionFailure = assertion;
        }
    }

    /** The last assertion a cycle broke (tests run with assertions on), or null. */
    public AssertionError lastAssertionFailure() {
        return lastAssertionFailure;
    }

    /**
     * One-thread layout: takes every command the last reads queued (they can be thousands after a stall), a batch at
     * a time with its reports in between, so the inbound ring never fills for want of a turn.
     */
    private int matchInline() {
        int work = 0;
        int commands;
        while ((commands = inlineMatching.doWork()) > 0) {
            work += commands;
            work += reports.drain(DRAIN_BATCH, nowMs);
        }
        return work;
    }

    /** Whether there is work for the next cycle: checked after announcing a sleep, before blocking. */
    boolean hasWork() {
        return ioWork > 0 || (dirtyCount > 0 && mayWrite())
            || outbound.hasEvents() || pending.size() > 0
            || (refusalCopies != null && refusalCopies.hasWork())
            || (inlineMatching != null && inlineMatching.inbound().size() > 0);
    }

    /** The cycle found nothing to do for a while and is about to block; see {@link ConsumerWakeup}. */
    void announceSleep() {
        if (wakeup != null) {
            wakeup.announceSleep();
        }
        ConsumerWakeup copies = refusalCopies == null ? null : refusalCopies.consumerWakeup();
        if (copies != null) {
            copies.announceSleep();
        }
    }

    /** Awake again (or decided not to block). */
    void awake() {
        if (wakeup != null) {
            wakeup.awake();
        }
        ConsumerWakeup copies = refusalCopies == null ? null : refusalCopies.consumerWakeup();
        if (copies != null) {
            copies.awake();
        }
    }

    private void runTimers() {
        for (int i = 0; i < sessions.size(); i++) {
            sessions.get(i).onTimer(nowMs);
        }
        for (int i = 0; i < connections.size(); i++) {
            connections.get(i).onTimer(nowMs);
        }
        for (int i = 0; i < timers.size(); i++) {
            timers.get(i).accept(nowMs);
        }
    }

    /**
     * Writes every queued message to its socket; records the stages of the traced reports among them. Under a
     * {@link WriteLease} that has run out, writes nothing: the bytes stay queued until the cluster extends it.
     */
    private int flush() {
        if (dirtyCount == 0) {
            return 0;
        }
        boolean mayWrite = mayWrite();
        if (!mayWrite) {
            writeLease.held();
        }
        int bytes = 0;
        int held = 0;
        boolean traced = stages.hasPending();
        for (int i = 0; i < dirtyCount; i++) {
            SessionTransport transport = dirty[i];
            dirty[i] = null;
            if (!mayWrite && transport.fenced()) {
                dirty[held++] = transport; // a cluster-owned session's bytes wait for the lease
                continue;
            }
            bytes += transport.flush();
            if (traced) {
                stages.flushed(transport, System.nanoTime());
            }
        }
        dirtyCount = held;
        if (traced) {
            stages.recordWritten(System.nanoTime());
        }
        return bytes;
    }

    private void drainAndFlush() {
        reports.drain(DRAIN_BATCH, nowMs);
        flush();
    }

    /**
     * Back-pressure: the inbound ring is more than half full (the engine is behind), so this connection stops reading
     * (TCP then slows its client down) until the ring drains, rather than reading requests only to refuse them as
     * "server busy". Gateway thread.
     */
    public boolean pauseReadingIfCongested(GatewayConnection connection) {
        if (!inbound.congested()) {
            return false;
        }
        if (pausedReaders.isEmpty()) {
            LOG.warn("{}: the inbound ring is over half full: pausing reads until the engine catches up", name);
        }
        pausedReaders.add(connection);
        return true;
    }

    private void resumeReaders() {
        LOG.info("{}: the engine caught up: reading again from {} connections", name, pausedReaders.size());
        for (int i = 0; i < pausedReaders.size(); i++) {
            pausedReaders.get(i).resumeReading();
        }
        pausedReaders.clear();
    }

    /** A transport has bytes queued: it is written at the end of this cycle. Gateway thread. */
    public void markDirty(SessionTransport transport) {
        if (dirtyCount == dirty.length) {
            dirty = Arrays.copyOf(dirty, dirty.length * 2);
        }
        dirty[dirtyCount++] = transport;
    }

    /** The event loop read bytes (between cycles): counts as work, so the cycle does not back off. */
    public void onRead() {
        ioWork++;
    }

    /**
     * The event loop finished a batch of reads from one connection (Netty may read several batches, of several
     * connections, before the next cycle): a cycle runs now, so that what was read is matched (one-thread layout)
     * and answered before more is read, and the inbound ring does not fill with work read ahead of the engine.
     */
    public void afterReads() {
        if (started && !stopped) {
            doWork();
        }
    }

    /** The wall clock of the current cycle, ms. */
    public long nowMs() {
        return nowMs;
    }

    public void addConnection(GatewayConnection connection) {
        connections.add(connection);
        openConnections = connections.size();
    }

    /** Any thread: connections this gateway serves (shutdown waits for 0 after closing them). */
    public int openConnections() {
        return openConnections;
    }

    /** A connection accepted on another gateway's loop arrived here, its session's gateway, at Logon. */
    public void onConnectionMovedIn() {
        connectionsMovedIn++;
    }

    /** Any thread: connections moved here from another gateway's loop so far. */
    public long connectionsMovedIn() {
        return connectionsMovedIn;
    }

    public void removeConnection(GatewayConnection connection) {
        connections.remove(connection);
        pausedReaders.remove(connection);
        openConnections = connections.size();
    }

    /** Whether this gateway owns the session (a fixed assignment). */
    public boolean owns(FixSession session) {
        return sessions.contains(session);
    }

    /** The market data of this gateway's sessions, or null when the venue offers none. */
    public MarketDataFeed marketData() {
        return marketData;
    }

    public PendingCommands pendingCommands() {
        return pending;
    }

    public LatencyStages latencyStages() {
        return stages;
    }

    public int index() {
        return index;
    }

    public String name() {
        return name;
    }

    /** The event loop this gateway runs on (set by {@link #attach}). */
    public ScheduledExecutorService eventLoop() {
        return loop;
    }

    /** Any thread: runs {@code task} on the gateway thread; the future completes when it has run. */
    public CompletableFuture<Void> submit(Runnable task) {
        return CompletableFuture.runAsync(task, loop);
    }

    /** Any thread: runs {@code task} on the gateway thread; the future completes with its result. */
    public <T> CompletableFuture<T> call(Supplier<T> task) {
        return CompletableFuture.supplyAsync(task, loop);
    }

    /**
     * Gateway thread: the operator logs one of this gateway's sessions out (the client's Logout reply, or the
     * timeout, then closes the connection). Returns false if the session was not logged on.
     */
    public boolean logout(FixSession session, String text) {
        if (!owns(session)) {
            throw new IllegalArgumentException(session.name() + " belongs to another gateway");
        }
        if (!session.isLoggedOn()) {
            return false;
        }
        session.logout(text, System.currentTimeMillis());
        flush();
        return true;
    }

    /**
     * Gateway thread: hands a command no client waits on (the operator's) to the engine: now, or at a later cycle if
     * the ring is full; never dropped.
     */
    public void submitCommand(Command command) {
        pending.submit(command);
    }

    /**
     * Gateway thread, one-thread layout, at shutdown: the matching step processes what is queued, snapshots and
     * closes the journal; the cycle runs it no more.
     */
    public void closeInlineMatching() {
        MatchingRuntime runtime = inlineMatching;
        inlineMatching = null;
        if (runtime != null) {
            runtime.close();
        }
    }

    /** Gateway thread: Logout to every logged-on session (shutdown). */
    public void logoutAll(String text) {
        for (FixSession session : sessions) {
            session.logout(text, nowMs);
        }
        flush();
    }

    /** Gateway thread: closes every connection (each is gone, its session told, a moment later). */
    public void closeConnections() {
        for (GatewayConnection connection : new ArrayList<>(connections)) {
            connection.close();
        }
        flush();
    }

    /**
     * Gateway thread, last: after the engine stopped, turns every remaining event into its report (stored for
     * resend), marks in each session's store that every event up to {@code journaledThrough} (the journal position
     * the stopped engine covered; 0: none) is stored, closes the stores, and lets the cycle idle until the event loop
     * ends.
     */
    public void finish(long journaledThrough) {
        closeInlineMatching();
        while (reports.drain(DRAIN_BATCH, System.currentTimeMillis()) > 0) {
            flush();
        }
        while (refusalCopies != null && refusalCopies.drain(DRAIN_BATCH, System.currentTimeMillis()) > 0) {
            flush();
        }
        flush();
        for (FixSession session : sessions) {
            if (journaledThrough > 0) {
                session.journalPositions().markEventsStoredThrough(journaledThrough);
            }
            session.close();
        }
        stopped = true;
        if (cpuLock != null) {
            cpuLock.release();
            cpuLock = null;
        }
        LOG.info("{} stopped: {} reports routed, woken {} times by the matching thread, {} cycles", name,
            reports.eventsRouted(), wakeup == null ? 0 : wakeup.wakeups(), cycles);
    }

    /** Reports routed so far (after {@link #finish(long)}: all). */
    public long reportsRouted() {
        return reports.eventsRouted();
    }
}
