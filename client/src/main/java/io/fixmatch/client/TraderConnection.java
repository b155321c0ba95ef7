package io.fixmatch.client;

import quickfix.Application;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.Log;
import quickfix.Message;
import quickfix.MemoryStoreFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionNotFound;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.MsgType;
import quickfix.field.Password;
import quickfix.field.SenderCompID;
import quickfix.field.Text;
import quickfix.field.Username;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One FIX 4.4 session to a fixmatch server, as a trader's QuickFIX/J initiator: logs on (resetting sequence numbers,
 * so every run starts afresh), hands the application messages it receives to a {@link Listener}, logs out.
 *
 * <p>It fails fast with one line instead of waiting: nothing listening, an acceptor that answers as another
 * CompID than expected (someone else's FIX engine on that port), a Logout instead of a Logon (unknown
 * SenderCompID, bad password: the server's text is the reason).
 */
public final class TraderConnection implements AutoCloseable {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration LOGON_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration LOGOUT_TIMEOUT = Duration.ofSeconds(2);

    /** What the session receives after the Logon. Called on QuickFIX/J's thread. */
    public interface Listener {
        void onApplicationMessage(Message message);

        /** The session ended without our asking: the server logged us out, or the connection dropped. */
        void onSessionEnded(String reason);
    }

    /** Where to connect and as whom. */
    public record Target(String host, int port, String senderCompId, String targetCompId, String username,
                         String password, int heartbeatSeconds) {
        public Target(String host, int port, String senderCompId) {
            this(host, port, senderCompId, "FIXMATCH", null, null, 30);
        }

        String where() {
            return host + ":" + port;
        }
    }

    /** Why a session could not be opened: one line for the user. */
    public static final class ConnectionFailure extends Exception {
        private static final long serialVersionUID = 1L;

        ConnectionFailure(String message) {
            super(message);
        }
    }

    /** No message log on the terminal: the client reports what matters itself. */
    private static final Log SILENT = new Log() {
        @Override
        public void clear() {
        }

        @Override
        public void onIncoming(String message) {
        }

        @Override
        public void onOutgoing(String message) {
        }

        @Override
        public void onEvent(String text) {
        }

        @Override
        public void onErrorEvent(String text) {
        }
    };

    private final Target target;
    private final Listener listener;
    private final SessionID sessionId;
    private final CompletableFuture<Void> loggedOn = new CompletableFuture<>();
    private final CountDownLatch loggedOut = new CountDownLatch(1);
    private SocketInitiator initiator;
    /** The Text of the Logout the server sent, if any. */
    private volatile String logoutText;
    private volatile boolean closing;

    private TraderConnection(Target target, Listener listener) {
        this.target = target;
        this.listener = listener;
        this.sessionId = new SessionID("FIX.4.4", target.senderCompId(), target.targetCompId());
    }

    /** Connects and logs on, or explains in one line why it could not. */
    public static TraderConnection open(Target target, Listener listener) throws ConnectionFailure {
        TraderConnection connection = new TraderConnection(target, listener);
        try {
            connection.probe();
            connection.start();
            connection.awaitLogon();
            return connection;
        } catch (ConnectionFailure e) {
            connection.abandon();
            throw e;
        }
    }

    public String senderCompId() {
        return target.senderCompId();
    }

    /** Sends an application message; false when the session is not logged on. */
    public boolean send(Message message) {
        try {
            return Session.sendToTarget(message, sessionId);
        } catch (SessionNotFound e) {
            return false;
        }
    }

    /** Logs out (waiting briefly for the server's reply) and releases the connection. */
    @Override
    public void close() {
        closing = true;
        Session session = Session.lookupSession(sessionId);
        if (session != null && session.isLoggedOn()) {
            session.logout();
            nudge(session);
            try {
                loggedOut.await(LOGOUT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        abandon(); // logged out: nothing left to wait for (QuickFIX/J's own stop polls for a while)
    }

    /** Drops the connection without waiting for a Logout reply (the other side did not answer as expected). */
    private void abandon() {
        closing = true;
        if (initiator != null) {
            initiator.stop(true);
            initiator = null;
        }
    }

    /** QuickFIX/J retries a refused connection silently: try once ourselves first. */
    private void probe() throws ConnectionFailure {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(target.host(), target.port()), (int) CONNECT_TIMEOUT.toMillis());
        } catch (IOException e) {
            throw new ConnectionFailure("cannot connect to " + target.where() + " (" + e.getMessage()
                + "): is a fixmatch server running there? (scripts/server.sh)");
        }
    }

    private void start() throws ConnectionFailure {
        String settings = String.join("\n",
            "[default]",
            "ConnectionType=initiator",
            "NonStopSession=Y",
            // No retries: a session that ends is reported, not silently reopened.
            "ReconnectInterval=86400",
            "ResetOnLogon=Y",
            "LogonTimeout=" + LOGON_TIMEOUT.toSeconds(),
            "LogoutTimeout=2",
            "UseDataDictionary=Y",
            "DataDictionary=FIX44.xml",
            // The acceptor's CompID is checked by us at Logon, with a message a person understands.
            "CheckCompID=N",
            "[session]",
            "BeginString=" + sessionId.getBeginString(),
            "SenderCompID=" + sessionId.getSenderCompID(),
            "TargetCompID=" + sessionId.getTargetCompID(),
            "SocketConnectHost=" + target.host(),
            "SocketConnectPort=" + target.port(),
            "HeartBtInt=" + target.heartbeatSeconds(),
            "");
        try {
            initiator = new SocketInitiator(new Callbacks(), new MemoryStoreFactory(),
                new SessionSettings(new ByteArrayInputStream(settings.getBytes(StandardCharsets.UTF_8))),
                sessionId -> SILENT, new DefaultMessageFactory());
            initiator.start();
            nudge(Session.lookupSession(sessionId));
        } catch (ConfigError e) {
            throw new ConnectionFailure("cannot start the FIX session: " + e.getMessage());
        }
    }

    /**
     * QuickFIX/J sends the Logon, or a Logout asked for, at the next tick of its one-second timer; calling the
     * session's timer step once the connection is up sends it at once.
     */
    private static void nudge(Session session) {
        if (session == null) {
            return;
        }
        try {
            long deadline = System.nanoTime() + CONNECT_TIMEOUT.toNanos();
            while (!session.hasResponder() && System.nanoTime() < deadline) {
                Thread.sleep(2);
            }
            session.next();
        } catch (IOException e) {
            // the timer's next step tries again
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitLogon() throws ConnectionFailure {
        try {
            loggedOn.get(LOGON_TIMEOUT.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw (ConnectionFailure) e.getCause();
        } catch (TimeoutException e) {
            throw new ConnectionFailure("no Logon reply from " + target.where() + " within "
                + LOGON_TIMEOUT.toSeconds() + " s: is it a FIX acceptor?");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectionFailure("interrupted while logging on");
        }
    }

    /** QuickFIX/J's callbacks, on its thread. */
    private final class Callbacks implements Application {
        @Override
        public void onCreate(SessionID id) {
        }

        @Override
        public void onLogon(SessionID id) {
            loggedOn.complete(null);
        }

        @Override
        public void onLogout(SessionID id) {
            loggedOut.countDown();
            String reason = logoutText != null ? "the server logged " + target.senderCompId() + " out: " + logoutText
                : "the connection to " + target.where() + " closed";
            if (loggedOn.completeExceptionally(new ConnectionFailure(logoutText != null
                ? target.where() + " refused the logon of " + target.senderCompId() + ": " + logoutText
                : target.where() + " closed the connection without answering the Logon"))) {
                return;
            }
            if (!closing) {
                listener.onSessionEnded(reason);
            }
        }

        @Override
        public void toAdmin(Message message, SessionID id) {
            if (MsgType.LOGON.equals(Fields.of(message, MsgType.FIELD))) {
                if (target.username() != null) {
                    message.setField(new Username(target.username()));
                }
                if (target.password() != null) {
                    message.setField(new Password(target.password()));
                }
            }
        }

        @Override
        public void fromAdmin(Message message, SessionID id) {
            String type = Fields.of(message, MsgType.FIELD);
            if (MsgType.LOGON.equals(type)) {
                String answeredAs = Fields.of(message, SenderCompID.FIELD);
                if (!target.targetCompId().equals(answeredAs)) {
                    loggedOn.completeExceptionally(new ConnectionFailure("the FIX acceptor at " + target.where()
                        + " answered as " + answeredAs + ", not " + target.targetCompId()
                        + ": that is not the fixmatch server you meant (check --host and --port)"));
                }
            } else if (MsgType.LOGOUT.equals(type)) {
                String text = Fields.of(message, Text.FIELD);
                logoutText = text != null ? text : "(no reason given)";
            }
        }

        @Override
        public void toApp(Message message, SessionID id) {
        }

        @Override
        public void fromApp(Message message, SessionID id) {
            listener.onApplicationMessage(message);
        }
    }
}
