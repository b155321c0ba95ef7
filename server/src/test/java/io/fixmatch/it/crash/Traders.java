package io.fixmatch.it.crash;

import io.fixmatch.it.ForwardingLog;
import io.fixmatch.it.Orders;
import io.fixmatch.it.QuickFixJTimer;
import quickfix.Application;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.FileStoreFactory;
import quickfix.Message;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionNotFound;
import quickfix.SessionSettings;
import quickfix.ThreadedSocketInitiator;
import quickfix.field.Side;
import quickfix.field.TestReqID;
import quickfix.fix44.TestRequest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The traders: unmodified QuickFIX/J initiators (one thread per session), each with a FILE store, so their
 * sequence numbers and sent messages live on disk as a real trader's do, reconnecting by themselves every second
 * and never resetting sequence numbers. Every message in and out and every error event goes to the session's
 * {@link TraderLog}; accepted execution reports also to its {@link OpenOrders}.
 */
final class Traders implements AutoCloseable {
    /** Status requests that may wait for their answers at once, per session: the server's ring stays far from full. */
    private static final int STATUS_WINDOW = 500;

    private final Map<String, SessionID> sessions = new LinkedHashMap<>();
    private final Map<SessionID, TraderLog> logs = new ConcurrentHashMap<>();
    private final Map<SessionID, OpenOrders> openOrders = new ConcurrentHashMap<>();
    private final Map<SessionID, AtomicInteger> logons = new ConcurrentHashMap<>();
    private final ThreadedSocketInitiator initiator;
    private final List<LoadDriver> drivers = new ArrayList<>();
    /** QuickFIX/J's session timer ticked more often for these sessions ({@link QuickFixJTimer}). */
    private static final Duration TICK = Duration.ofMillis(10);
    private final List<java.util.concurrent.Future<?>> ticks = new ArrayList<>();
    private int testRequests;
    private int barriers;

    /** Every session on one server's port. */
    Traders(List<String> compIds, int port, Path storeDirectory) throws ConfigError {
        this(portsOf(compIds, port), storeDirectory);
    }

    /** Each session on its own server's port (by CompID, in this order): the gateways of a cluster. */
    Traders(Map<String, Integer> portByCompId, Path storeDirectory) throws ConfigError {
        this(addressesOf(portByCompId), storeDirectory, 30);
    }

    /**
     * Every session given every gateway's port, in this order ({@code SocketConnectPort}, {@code SocketConnectPort1},
     * ...: QuickFIX/J tries the next at each reconnect), as a trader of a venue with several gateways is told to.
     */
    static Traders withAddresses(List<String> compIds, int[] ports, Path storeDirectory, int heartbeatSeconds)
        throws ConfigError {
        Map<String, int[]> addresses = new LinkedHashMap<>();
        compIds.forEach(compId -> addresses.put(compId, ports.clone()));
        return new Traders(addresses, storeDirectory, heartbeatSeconds);
    }

    private static Map<String, int[]> addressesOf(Map<String, Integer> portByCompId) {
        Map<String, int[]> addresses = new LinkedHashMap<>();
        portByCompId.forEach((compId, port) -> addresses.put(compId, new int[] {port}));
        return addresses;
    }

    private Traders(Map<String, int[]> addressesByCompId, Path storeDirectory, int heartbeatSeconds)
        throws ConfigError {
        SessionSettings settings = new SessionSettings();
        for (Map.Entry<String, int[]> session : addressesByCompId.entrySet()) {
            String compId = session.getKey();
            int[] ports = session.getValue();
            SessionID id = new SessionID("FIX.4.4", compId, "FIXMATCH");
            sessions.put(compId, id);
            logs.put(id, new TraderLog(compId));
            openOrders.put(id, new OpenOrders());
            logons.put(id, new AtomicInteger());
            settings.setString(id, "ConnectionType", "initiator");
            for (int i = 0; i < ports.length; i++) {
                String suffix = i == 0 ? "" : Integer.toString(i);
                settings.setString(id, "SocketConnectHost" + suffix, "127.0.0.1");
                settings.setLong(id, "SocketConnectPort" + suffix, ports[i]);
            }
            settings.setLong(id, "HeartBtInt", heartbeatSeconds);
            settings.setLong(id, "ReconnectInterval", 1);
            settings.setString(id, "NonStopSession", "Y");
            settings.setString(id, "UseDataDictionary", "Y");
            settings.setString(id, "DataDictionary", "FIX44.xml");
            settings.setString(id, "ResetOnLogon", "N");
            settings.setString(id, "ResetOnLogout", "N");
            settings.setString(id, "ResetOnDisconnect", "N");
            settings.setString(id, "PersistMessages", "Y");
            settings.setLong(id, "LogonTimeout", 10);
            settings.setLong(id, "LogoutTimeout", 2);
            settings.setString(id, "FileStorePath", storeDirectory.toString());
        }
        initiator = new ThreadedSocketInitiator(new Recorder(), new FileStoreFactory(settings), settings,
            id -> forwardingLog(logs.get(id)), new DefaultMessageFactory());
    }

    private static Map<String, Integer> portsOf(List<String> compIds, int port) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        compIds.forEach(compId -> ports.put(compId, port));
        return ports;
    }

    void start() throws ConfigError {
        initiator.start();
        for (SessionID id : sessions.values()) { // a Logon as soon as a connection is up, not at the next second
            ticks.add(QuickFixJTimer.tickEvery(TICK, id, logs.get(id)::error));
        }
    }

    List<TraderLog> logs() {
        return sessions.values().stream().map(logs::get).toList();
    }

    /** Starts each session's order flow at {@code ratePerSecond}, day orders only. */
    void startLoad(List<String> symbols, long seed, int ratePerSecond) {
        startLoad(symbols, seed, ratePerSecond, 0);
    }

    /** Starts each session's order flow at {@code ratePerSecond}, {@code gtdPercent} of its new orders GTD. */
    void startLoad(List<String> symbols, long seed, int ratePerSecond, int gtdPercent) {
        int index = 0;
        for (SessionID id : sessions.values()) {
            LoadDriver driver = new LoadDriver(id, openOrders.get(id), symbols, seed * 31 + index++, ratePerSecond,
                gtdPercent);
            drivers.add(driver);
            driver.start();
        }
    }

    void pauseLoad() {
        drivers.forEach(LoadDriver::pause);
    }

    void resumeLoad() {
        drivers.forEach(LoadDriver::resume);
    }

    void stopLoad() throws InterruptedException {
        for (LoadDriver driver : drivers) {
            driver.stop();
        }
        drivers.clear();
    }

    /** Waits until every session has logged on at least {@code count} times in all and is logged on now. */
    void awaitLogons(int count, Duration timeout) throws InterruptedException {
        await(() -> sessions.values().stream().allMatch(id -> logons.get(id).get() >= count && loggedOn(id)),
            timeout, () -> "every session's logon number " + count + "; logons " + logonCounts() + "; errors "
                + lastErrors());
    }

    /**
     * Waits until the server has answered a TestRequest on every session: QuickFIX/J hands messages over in
     * sequence, so every gap the client saw is filled by then, and every request sent before is in the server's
     * hands. A TestRequest that reaches the server during a gap is dropped there (and gap-filled when the client
     * resends), so an unanswered session gets a new one every two seconds.
     */
    void awaitQuiet(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<SessionID, String> waiting = new LinkedHashMap<>();
        for (SessionID id : sessions.values()) {
            waiting.put(id, null);
        }
        while (!waiting.isEmpty()) {
            for (Map.Entry<SessionID, String> entry : waiting.entrySet()) {
                String testReqId = "quiet-" + ++testRequests;
                entry.setValue(testReqId);
                send(new TestRequest(new TestReqID(testReqId)), entry.getKey());
            }
            long retryAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (!waiting.isEmpty() && System.nanoTime() < retryAt) {
                waiting.entrySet().removeIf(entry -> logs.get(entry.getKey()).heartbeatReceived(entry.getValue()));
                TimeUnit.MILLISECONDS.sleep(10); // polling with a deadline
            }
            if (!waiting.isEmpty() && System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for Heartbeats answering "
                    + "TestRequests on " + waiting.keySet() + "; logons " + logonCounts() + "; errors "
                    + lastErrors());
            }
        }
    }

    /**
     * Waits until every request sent so far is answered and every report it caused has reached its client: an
     * OrderStatusRequest on each session, answered once the engine has processed that session's earlier requests;
     * then, every session's answer in (so every request sent before is processed), a second round, whose answer
     * each session's client receives after every report those requests caused it (one matching thread; each
     * session's messages in order). A TestRequest's Heartbeat ({@link #awaitQuiet}) says less: the gateway answers it
     * while the requests before it may still be on their way to the engine.
     */
    void awaitAnswered(String symbol, Duration timeout) throws InterruptedException {
        for (int round = 0; round < 2; round++) {
            int number = round + 1;
            Map<SessionID, Integer> answersBefore = new LinkedHashMap<>();
            for (SessionID id : sessions.values()) {
                answersBefore.put(id, logs.get(id).statusAnswers());
                send(Orders.status("answered-" + ++barriers, symbol, Side.BUY), id);
            }
            await(() -> answersBefore.entrySet().stream()
                    .allMatch(entry -> logs.get(entry.getKey()).statusAnswers() > entry.getValue()), timeout,
                () -> "the answers to the status requests of round " + number + "; errors "
                    + lastErrors());
        }
    }

    /**
     * Asks the server the status of every ClOrdID each client sent (OrderStatusRequest, the order's symbol and
     * side), a window at a time, and waits for every answer. A request a cluster gateway refuses while no leader
     * answers ("cluster unavailable": no answer) is asked again a little later.
     */
    void queryStatus(Duration timeout) throws InterruptedException {
        Map<SessionID, StatusQuery> queries = new LinkedHashMap<>();
        for (SessionID id : sessions.values()) {
            queries.put(id, new StatusQuery(logs.get(id)));
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean done = false;
        while (!done) {
            done = true;
            for (Map.Entry<SessionID, StatusQuery> entry : queries.entrySet()) {
                done &= entry.getValue().sendMore(entry.getKey());
            }
            if (!done) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("status answers still missing after " + timeout + ": " + progress(queries)
                        + "; errors " + lastErrors());
                }
                TimeUnit.MILLISECONDS.sleep(5); // polling with a deadline
            }
        }
    }

    /** One session's status queries: what is sent, what answered, what to ask again. */
    private static final class StatusQuery {
        private static final long RETRY_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

        final TraderLog log;
        final List<Request> requests;
        final int answersBefore;
        final int refusalsBefore;
        final List<String> again = new ArrayList<>();
        int next;
        int sentAgain;
        long againAt;

        StatusQuery(TraderLog log) {
            this.log = log;
            this.requests = log.requests();
            this.answersBefore = log.statusAnswers();
            this.refusalsBefore = log.statusRefusals();
        }

        int answered() {
            return log.statusAnswers() - answersBefore;
        }

        /** Sends what the window allows, and the refused again once a pause has passed; true once all answered. */
        boolean sendMore(SessionID id) {
            again.addAll(log.takeRefusedStatusRequests());
            long now = System.nanoTime();
            if (!again.isEmpty() && now - againAt > RETRY_PAUSE_NANOS) {
                for (String clOrdId : again) {
                    Request request = log.request(clOrdId);
                    if (request != null) {
                        send(Orders.status(request.clOrdId(), request.symbol(), request.side()), id);
                        sentAgain++;
                    }
                }
                again.clear();
                againAt = now;
            }
            int outstanding = next + sentAgain - answered() - (log.statusRefusals() - refusalsBefore);
            while (next < requests.size() && outstanding < STATUS_WINDOW) {
                Request request = requests.get(next++);
                send(Orders.status(request.clOrdId(), request.symbol(), request.side()), id);
                outstanding++;
            }
            return answered() >= requests.size();
        }
    }

    /** Sends one message of the test's own on the session of {@code compId}. */
    void send(String compId, Message message) {
        send(message, sessions.get(compId));
    }

    /** How many order requests each session's engine has numbered so far, by CompID. */
    Map<String, Integer> requestCounts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        sessions.forEach((compId, id) -> counts.put(compId, logs.get(id).requests().size()));
        return counts;
    }

    /** Records in each log the MsgSeqNum its client expects next, for the gap check. */
    void finish() {
        for (SessionID id : sessions.values()) {
            logs.get(id).finish(Session.lookupSession(id).getExpectedTargetNum());
        }
    }

    @Override
    public void close() {
        initiator.stop(true);
        ticks.forEach(tick -> tick.cancel(false));
    }

    private boolean loggedOn(SessionID id) {
        Session session = Session.lookupSession(id);
        return session != null && session.isLoggedOn();
    }

    private static String progress(Map<SessionID, StatusQuery> queries) {
        StringBuilder text = new StringBuilder();
        queries.forEach((id, query) -> text.append(id.getSenderCompID()).append(' ').append(query.answered())
            .append('/').append(query.requests.size()).append(' '));
        return text.toString();
    }

    /** How many times each session has logged on so far, by CompID. */
    Map<String, Integer> logons() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        sessions.forEach((compId, id) -> counts.put(compId, logons.get(id).get()));
        return counts;
    }

    private String logonCounts() {
        StringBuilder text = new StringBuilder();
        sessions.forEach((compId, id) -> text.append(compId).append('=').append(logons.get(id).get())
            .append(loggedOn(id) ? "(on) " : "(off) "));
        return text.toString();
    }

    private String lastErrors() {
        List<String> last = new ArrayList<>();
        for (TraderLog log : logs()) {
            List<String> errors = log.errors();
            if (!errors.isEmpty()) {
                last.add(log.compId() + ": " + errors.get(errors.size() - 1));
            }
        }
        return last.toString();
    }

    private static void send(Message message, SessionID id) {
        try {
            Session.sendToTarget(message, id);
        } catch (SessionNotFound e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(BooleanSupplier condition, Duration timeout, Supplier<String> what)
        throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what.get());
            }
            TimeUnit.MILLISECONDS.sleep(10); // polling with a deadline
        }
    }

    private static ForwardingLog forwardingLog(TraderLog log) {
        return new ForwardingLog(log::received, log::sent, event -> { }, log::error);
    }

    private final class Recorder implements Application {
        @Override
        public void onCreate(SessionID id) {
        }

        @Override
        public void onLogon(SessionID id) {
            logons.get(id).incrementAndGet();
        }

        @Override
        public void onLogout(SessionID id) {
        }

        @Override
        public void toAdmin(Message message, SessionID id) {
        }

        @Override
        public void fromAdmin(Message message, SessionID id) {
        }

        @Override
        public void toApp(Message message, SessionID id) {
            logs.get(id).numbered(message.toString());
        }

        @Override
        public void fromApp(Message message, SessionID id) {
            FixFields fields = FixFields.parse(message.toString());
            if ("8".equals(fields.msgType())) {
                openOrders.get(id).onReport(Report.of(fields));
            }
        }
    }
}
