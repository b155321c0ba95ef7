package io.fixmatch.it;

import io.fixmatch.server.WaitBounds;
import quickfix.Application;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.FileStoreFactory;
import quickfix.MemoryStoreFactory;
import quickfix.Message;
import quickfix.MessageStoreFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionNotFound;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.MsgType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import static io.fixmatch.fix.codec.testing.FixBuilder.SOH;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * An unmodified QuickFIX/J initiator for one session (SenderCompID {@code compId}, TargetCompID FIXMATCH), with the
 * FIX44.xml data dictionary validating everything it receives. Application messages it accepts go to a queue;
 * every raw message in and out and every QFJ error event is recorded, so a test can assert that QFJ neither
 * rejected (35=3 / 35=j sent back) nor complained about anything the server sent.
 */
public final class QfjClient implements AutoCloseable {
    /**
     * The error events of a client whose server restarts: its socket closed under it, then its tries refused until the
     * new server listens (longer than QuickFIX/J's 1 s between tries in cluster mode or on a busy machine).
     */
    public static final Pattern SERVER_RESTARTED =
        Pattern.compile("Socket exception|Connection reset|Connection refused");
    static final Duration TIMEOUT = WaitBounds.ANSWER;

    private final SessionID sessionId;
    private final SocketInitiator initiator;
    private final BlockingQueue<Message> appMessages = new LinkedBlockingQueue<>();
    private final BlockingQueue<Message> adminMessages = new LinkedBlockingQueue<>();
    private final List<String> incoming = new CopyOnWriteArrayList<>();
    private final List<String> outgoing = new CopyOnWriteArrayList<>();
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final AtomicInteger logons = new AtomicInteger();
    private volatile boolean stopped;
    /** Set by {@link #close()}: the Logouts QFJ had sent before; a later one is the one {@code close()} causes. */
    private volatile int logoutsBeforeClose = -1;
    /** QuickFIX/J's session timer ticked more often for this session ({@link QuickFixJTimer}), from start to stop. */
    private static final Duration TICK = Duration.ofMillis(10);
    private volatile java.util.concurrent.Future<?> ticks;
    private final Options options;

    /** Options of the session; the defaults are those of the brief. */
    static final class Options {
        int heartBtInt = 30;
        /** A folder for a FileStore (sequence numbers survive a restart of the client), or null for a MemoryStore. */
        Path fileStore;
        boolean resetOnLogon;
        int reconnectIntervalSeconds = 1;
        /** The data dictionary QFJ validates with (a classpath resource or a file). */
        String dataDictionary = "FIX44.xml";

        Options heartBtInt(int seconds) {
            heartBtInt = seconds;
            return this;
        }

        Options fileStore(Path folder) {
            fileStore = folder;
            return this;
        }

        Options dataDictionary(String resource) {
            dataDictionary = resource;
            return this;
        }

        Options resetOnLogon(boolean value) {
            resetOnLogon = value;
            return this;
        }

        /** Further QuickFIX/J session settings (TLS, the local address, ...). */
        final java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();

        Options setting(String key, String value) {
            settings.put(key, value);
            return this;
        }
    }

    /** Creates and starts the initiator, then waits for the logon. */
    static QfjClient logOn(String compId, int port, Options options) throws ConfigError, InterruptedException {
        QfjClient client = new QfjClient(compId, port, options);
        try {
            client.start();
            client.awaitLogons(1);
            return client;
        } catch (Throwable e) {
            client.close();
            throw e;
        }
    }

    public static QfjClient logOn(String compId, int port) throws ConfigError, InterruptedException {
        return logOn(compId, port, new Options());
    }

    QfjClient(String compId, int port, Options options) throws ConfigError {
        this.options = options;
        sessionId = new SessionID("FIX.4.4", compId, "FIXMATCH");
        SessionSettings settings = new SessionSettings();
        settings.setString(sessionId, "ConnectionType", "initiator");
        settings.setString(sessionId, "BeginString", "FIX.4.4");
        settings.setString(sessionId, "SenderCompID", compId);
        settings.setString(sessionId, "TargetCompID", "FIXMATCH");
        settings.setString(sessionId, "SocketConnectHost", "127.0.0.1");
        settings.setLong(sessionId, "SocketConnectPort", port);
        settings.setLong(sessionId, "HeartBtInt", options.heartBtInt);
        settings.setLong(sessionId, "ReconnectInterval", options.reconnectIntervalSeconds);
        settings.setString(sessionId, "NonStopSession", "Y");
        settings.setString(sessionId, "UseDataDictionary", "Y");
        settings.setString(sessionId, "DataDictionary", options.dataDictionary);
        settings.setString(sessionId, "ResetOnLogon", options.resetOnLogon ? "Y" : "N");
        settings.setLong(sessionId, "LogonTimeout", 5);
        settings.setLong(sessionId, "LogoutTimeout", 2);
        options.settings.forEach((key, value) -> settings.setString(sessionId, key, value));
        MessageStoreFactory store;
        if (options.fileStore != null) {
            settings.setString(sessionId, "FileStorePath", options.fileStore.toString());
            store = new FileStoreFactory(settings);
        } else {
            store = new MemoryStoreFactory();
        }
        initiator = new SocketInitiator(new Recorder(), store, settings,
            id -> new ForwardingLog(incoming::add, outgoing::add, events::add, errors::add),
            new DefaultMessageFactory());
    }

    void start() throws ConfigError {
        initiator.start();
        // Not over TLS: QuickFIX/J 2.3.1's TLS layer (MINA 2.2's SslFilter) sometimes never delivers the server's
        // Logon answer to a Logon it wrote the moment the handshake ended (the server logged the session on; a JDK TLS
        // client doing the same is answered every time: SecurityTest.aLogonWrittenTheMomentTheTlsHandshakeEnds...).
        // At QuickFIX/J's own second, the handshake's last records have long arrived.
        if (!"Y".equals(options.settings.get("SocketUseSSL"))) {
            ticks = QuickFixJTimer.tickEvery(TICK, sessionId, errors::add);
        }
    }

    SessionID sessionId() {
        return sessionId;
    }

    Session session() {
        Session session = Session.lookupSession(sessionId);
        if (session == null) {
            throw new IllegalStateException("no QFJ session " + sessionId);
        }
        return session;
    }

    public boolean isLoggedOn() {
        return !stopped && Session.lookupSession(sessionId) != null && session().isLoggedOn();
    }

    public int logonCount() {
        return logons.get();
    }

    /** Waits until QFJ has seen {@code count} logons in all (1 for the first). */
    void awaitLogons(int count) throws InterruptedException {
        awaitCondition(() -> logons.get() >= count && isLoggedOn(),
            () -> sessionId + ": logon number " + count + "; QFJ errors: " + errors + "; QFJ events: " + events);
    }

    void awaitLoggedOut() throws InterruptedException {
        awaitCondition(() -> !isLoggedOn(), sessionId + ": logout");
    }

    static void awaitCondition(BooleanSupplier condition, String what) throws InterruptedException {
        awaitCondition(condition, () -> what);
    }

    /** Polls the condition every 10 ms until it holds; fails after {@link #TIMEOUT}. */
    static void awaitCondition(BooleanSupplier condition, Supplier<String> what) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out after " + TIMEOUT + " waiting for " + what.get());
            }
            TimeUnit.MILLISECONDS.sleep(10); // polling a condition with a deadline
        }
    }

    public void send(Message message) {
        try {
            if (!Session.sendToTarget(message, sessionId)) {
                fail(sessionId + ": QFJ did not send " + message);
            }
        } catch (SessionNotFound e) {
            throw new IllegalStateException(e);
        }
    }

    /** The next application message QFJ accepted (fromApp), waiting up to the timeout. */
    Message nextApp() throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            Message message = appMessages.poll(50, TimeUnit.MILLISECONDS);
            if (message != null) {
                return message;
            }
            if (rejectSent() != null) { // QFJ refused what the server sent: no point waiting any longer
                fail(sessionId + ": QFJ rejected a message of the server: " + rejectSent() + "; QFJ errors: "
                    + errors);
            }
            if (System.nanoTime() > deadline) {
                fail(sessionId + ": no application message within " + TIMEOUT + "; QFJ errors: " + errors
                    + "; last incoming: " + tail(incoming));
            }
        }
    }

    /** The next application message if one arrives within {@code timeout}, else null. */
    public Message pollApp(Duration timeout) throws InterruptedException {
        return appMessages.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The first Reject or BusinessMessageReject QFJ sent to the server, or null. */
    private String rejectSent() {
        for (String raw : outgoing) {
            if (raw.contains(SOH + "35=3" + SOH) || raw.contains(SOH + "35=j" + SOH)) {
                return raw.replace(SOH, '|');
            }
        }
        return null;
    }

    /** The next application message, which must have this MsgType. */
    public Message nextApp(String msgType) throws InterruptedException {
        Message message = nextApp();
        assertEquals(msgType, msgType(message), "MsgType of " + show(message));
        return message;
    }

    /** The next admin message QFJ accepted (fromAdmin) that matches, skipping others (heartbeats, say). */
    Message nextAdmin(Predicate<Message> condition) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            Message message = left <= 0 ? null : adminMessages.poll(left, TimeUnit.NANOSECONDS);
            if (message == null) {
                return fail(sessionId + ": no matching admin message within " + TIMEOUT + "; QFJ errors: " + errors);
            }
            if (condition.test(message)) {
                return message;
            }
        }
    }

    /** Nothing is waiting in the application queue (what has arrived so far). */
    void assertNoPendingApp() {
        Message extra = appMessages.poll();
        if (extra != null) {
            fail(sessionId + ": unexpected application message " + show(extra));
        }
    }

    List<String> incomingRaw() {
        return new ArrayList<>(incoming);
    }

    /** QuickFIX/J's session events (its log's onEvent): what it decided, in order. */
    List<String> events() {
        return new ArrayList<>(events);
    }

    List<String> outgoingRaw() {
        return new ArrayList<>(outgoing);
    }

    List<String> errors() {
        return new ArrayList<>(errors);
    }

    /**
     * QFJ found nothing wrong with what the server sent: no Reject or BusinessMessageReject went out, and no error
     * event was logged except those matching {@code allowedErrors}.
     */
    public void assertNoProtocolErrors(Pattern... allowedErrors) {
        if (rejectSent() != null) {
            fail(sessionId + ": QFJ rejected a message of the server: " + rejectSent() + "; errors: " + errors);
        }
        for (String error : errors) {
            boolean allowed = false;
            for (Pattern pattern : allowedErrors) {
                allowed |= pattern.matcher(error).find();
            }
            if (!allowed) {
                fail(sessionId + ": QFJ error event: " + error);
            }
        }
    }

    /** Logs out (waiting for the server's Logout) and stops the initiator. */
    @Override
    public void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        logoutsBeforeClose = logoutsSent();
        initiator.stop();
        stopTicks();
    }

    private void stopTicks() {
        if (ticks != null) {
            ticks.cancel(false);
        }
    }

    private int logoutsSent() {
        return (int) outgoing.stream().filter(raw -> raw.contains(SOH + "35=5" + SOH)).count();
    }

    /**
     * Called with the server's Logout before QFJ looks at it: if it answers the Logout {@link #close()} had QFJ
     * write, waits until QFJ has also marked that Logout sent. QFJ (2.3.1, Session.generateLogout) writes the Logout,
     * then sets its "logout sent" flag; a reply that overtakes the flag (the timer thread descheduled between the
     * two, a loaded machine) is taken for the server's own Logout and answered with a second one, which the server
     * never asked for and which uses up a sequence number.
     */
    private void awaitOwnLogoutMarkedSent(Message message) {
        int before = logoutsBeforeClose;
        if (before < 0 || !"5".equals(msgType(message)) || logoutsSent() <= before) {
            return;
        }
        Session session = Session.lookupSession(sessionId);
        // The flag is set right after the write returns: only a starved thread takes long, so the bound is the
        // tests' answer bound (it was QFJ's 2 s LogoutTimeout, and a suite beside a build saw a second Logout once).
        long deadline = System.nanoTime() + WaitBounds.ANSWER.toNanos();
        while (session != null && !session.isLogoutSent() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(50_000);
        }
        if (session != null && !session.isLogoutSent()) {
            errors.add("the server's Logout came " + WaitBounds.ANSWER + " after QFJ wrote its own, and QFJ has not"
                + " marked its own sent: it will answer with a second Logout");
        }
    }

    /** Drops the connection without a Logout. */
    public void stopForcibly() {
        if (stopped) {
            return;
        }
        stopped = true;
        initiator.stop(true);
        stopTicks();
    }

    static String msgType(Message message) {
        try {
            return message.getHeader().getString(MsgType.FIELD);
        } catch (FieldNotFound e) {
            throw new AssertionError("no MsgType: " + message, e);
        }
    }

    static String show(Message message) {
        return message.toString().replace(SOH, '|');
    }

    private static String tail(List<String> list) {
        return list.isEmpty() ? "none" : list.get(list.size() - 1).replace(SOH, '|');
    }

    private final class Recorder implements Application {
        @Override
        public void onCreate(SessionID id) {
        }

        @Override
        public void onLogon(SessionID id) {
            logons.incrementAndGet();
        }

        @Override
        public void onLogout(SessionID id) {
        }

        @Override
        public void toAdmin(Message message, SessionID id) {
        }

        @Override
        public void fromAdmin(Message message, SessionID id) {
            awaitOwnLogoutMarkedSent(message);
            adminMessages.add(message);
        }

        @Override
        public void toApp(Message message, SessionID id) {
        }

        @Override
        public void fromApp(Message message, SessionID id) {
            appMessages.add(message);
        }
    }
}
