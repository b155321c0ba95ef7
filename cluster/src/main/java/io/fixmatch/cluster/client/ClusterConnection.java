package io.fixmatch.cluster.client;

import io.aeron.Publication;
import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.client.EgressListener;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.exceptions.AeronException;
import io.fixmatch.cluster.protocol.GatewayProcess;
import io.fixmatch.cluster.protocol.Ingress;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The gateway's cluster session and where it stands: the embedded media driver, the Aeron Cluster client, the hello
 * (said again while unanswered), the session lost and connected again, the time anything was last sent or heard.
 * Egress goes to the {@link EgressListener} as the session is polled. One thread: the link's (the starting thread
 * before the link's thread runs).
 */
final class ClusterConnection {
    /** This process: a restart says hello with another (the connections of its sessions are gone). */
    private static final long INCARNATION = System.currentTimeMillis() << 16 ^ ProcessHandle.current().pid();
    /** The link's log lines under one name. */
    private static final Logger LOG = LoggerFactory.getLogger(ClusterEngineLink.class);
    private static final long KEEPALIVE_NS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long RECONNECT_PAUSE_NS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long HELLO_AGAIN_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int HELLO_BYTES = 64 * 1024;

    /** CONNECTING, WELCOMING (said hello, waiting for the cluster's answer), LIVE or CLOSED. */
    enum State { CONNECTING, WELCOMING, LIVE, CLOSED }

    private final LinkSettings settings;
    private final LinkStatus status;
    private final EgressListener listener;
    private final WelcomeReader welcomes;
    private final UnsafeBuffer hello = new UnsafeBuffer(ByteBuffer.allocateDirect(HELLO_BYTES));
    private MediaDriver driver;
    private AeronCluster client;
    private AeronCluster.AsyncConnect connecting;
    private long reconnectAtNanos;
    private State state = State.CONNECTING;
    private String refusal;
    private long lastSentNanos;
    private long helloSentNanos;
    private boolean helloAgain;
    /** When anything last came from the cluster on egress. */
    private long lastHeardNanos = System.nanoTime();

    ClusterConnection(LinkSettings settings, LinkStatus status, EgressListener listener, WelcomeReader welcomes) {
        this.settings = settings;
        this.status = status;
        this.listener = listener;
        this.welcomes = welcomes;
    }

    /**
     * Starts the embedded media driver and connects to the cluster's leader, retrying until {@code deadlineNanos};
     * throws {@link ClusterUnavailableException} if none answered by then (the caller closes).
     */
    void open(long deadlineNanos) {
        driver = MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(settings.aeronDirectory().toString())
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(idleStrategy())
            .termBufferSparseFile(true)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .errorHandler(error -> LOG.error("gateway media driver: {}", error.toString(), error)));
        while (client == null) {
            try {
                client = AeronCluster.connect(clientContext());
            } catch (AeronException e) {
                if (System.nanoTime() > deadlineNanos) {
                    throw new ClusterUnavailableException("no cluster leader answered at "
                        + settings.members().ingressEndpoints() + " within " + settings.connectTimeoutMs() + " ms: "
                        + e.getMessage(), e);
                }
                LOG.info("waiting for the cluster ({}): {}", settings.members().ingressEndpoints(), e.getMessage());
            }
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

    /** Says hello (gateway id, venue fingerprint, owners): the cluster answers with a welcome or a refusal. */
    void sayHello() {
        int length = Ingress.encodeHello(hello, 0, settings.gatewayId(), settings.fingerprint(), settings.owners(),
            new GatewayProcess(INCARNATION, ProcessHandle.current().pid(), settings.fixPort(), settings.adminPort()));
        long result;
        while ((result = client.offer(hello, 0, length)) < 0) {
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
        welcomes.helloSaid();
    }

    /** A hello the cluster did not answer (a leader change swallowed it, or its answer): said again. */
    void helloAgainIfUnanswered(long nowNanos) {
        if (state == State.WELCOMING && (helloAgain || nowNanos - helloSentNanos > HELLO_AGAIN_NS)) {
            LOG.info("no welcome yet from the cluster: saying hello again");
            sayHello();
        }
    }

    /** A new leader while the hello is unanswered: it is said again at the next poll. */
    void helloAgain() {
        helloAgain = true;
    }

    /** One duty cycle's share: connects again once lost, else polls egress (to the listener) and notices a loss. */
    int doWork(long nowNanos) {
        if (state == State.CONNECTING) {
            return reconnect(nowNanos);
        }
        if (client == null) {
            return 0;
        }
        helloAgainIfUnanswered(nowNanos);
        int work = client.pollEgress();
        if (client.isClosed()) {
            lost(nowNanos);
        }
        return work;
    }

    /** On the starting thread: polls egress (to the listener); 0 if nothing came. */
    int poll() {
        return client.pollEgress();
    }

    /** The session is gone (no leader for too long, or a new leader closed it, or nothing heard): connect again. */
    void lost(long nowNanos) {
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

    private int reconnect(long nowNanos) {
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

    /** The cluster welcomed this gateway: commands may flow. */
    void welcomed() {
        refusal = null;
        state = State.LIVE;
        status.state = state.name();
        status.leaderMemberId = client.leaderMemberId();
    }

    /** The cluster refused this gateway, or this gateway the cluster's welcome: the whole reason, for the start. */
    void refused(String why) {
        refusal = why;
    }

    /** Why this gateway is not served since its last welcome; null if nothing was refused. */
    String refusal() {
        return refusal;
    }

    State state() {
        return state;
    }

    int leaderMemberId() {
        return client.leaderMemberId();
    }

    /** Offers {@code length} bytes from offset 0 to the leader; false if refused (back-pressure, no leader). */
    boolean offer(DirectBuffer buffer, int length, long nowNanos) {
        long result = client.offer(buffer, 0, length);
        if (result > 0) {
            lastSentNanos = nowNanos;
            return true;
        }
        status.backPressured++;
        return false;
    }

    /** When anything was last sent to the cluster. */
    long lastSentNanos() {
        return lastSentNanos;
    }

    /** A keep-alive when nothing was sent for a while, so the cluster does not time the session out. */
    void keepAliveIfQuiet(long nowNanos) {
        if (nowNanos - lastSentNanos > KEEPALIVE_NS && client.sendKeepAlive()) {
            lastSentNanos = nowNanos;
        }
    }

    /** Something came from the cluster. */
    void heard(long nowNanos) {
        lastHeardNanos = nowNanos;
    }

    /** When anything last came from the cluster on egress. */
    long lastHeardNanos() {
        return lastHeardNanos;
    }

    /** Closes the session (and a connection under way); the media driver stays until {@link #closeDriver}. */
    void close() {
        state = State.CLOSED;
        status.state = state.name();
        CloseHelper.quietClose(connecting);
        CloseHelper.quietClose(client);
    }

    void closeDriver() {
        CloseHelper.quietClose(driver);
    }
}
