package io.fixmatch.loadgen.client;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The load generator's session to the server, opened patiently: a server that is starting (not listening yet, or
 * listening but not ready: it answers the Logon once it is) or restarting is waited for. The connection and the Logon
 * are retried until the deadline, saying once that it waits and why; only then does it give up, with the reason.
 */
public final class ServerLogon {
    private static final long RETRY_MILLIS = 200;

    /** No server answered in time: the reason, one line. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String message) {
            super(message);
        }
    }

    /** Where to connect and as whom. */
    public record Target(String host, int port, String senderCompId, String targetCompId, int sendBufferBytes,
                         int heartbeatSeconds) {
        String where() {
            return host + ":" + port;
        }
    }

    private ServerLogon() {
    }

    /** A logged-on client, or {@link Unavailable} after {@code timeoutSeconds} of retrying; progress to {@code out}. */
    public static FixClient open(Target target, FixClient.Listener listener, long timeoutSeconds, PrintStream out)
        throws Unavailable, InterruptedException {
        long started = System.nanoTime();
        long deadline = started + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        boolean waiting = false;
        while (true) {
            String problem;
            FixClient client = null;
            try {
                client = new FixClient(target.host(), target.port(), target.senderCompId(), target.targetCompId(),
                    listener, target.sendBufferBytes());
                client.logonBy(target.heartbeatSeconds(), deadline);
                if (waiting) {
                    out.printf(Locale.ROOT, "the server at %s answered after %.1f s%n", target.where(),
                        (System.nanoTime() - started) / 1e9);
                }
                return client;
            } catch (UncheckedIOException e) {
                problem = "cannot connect: " + e.getCause().getMessage();
            } catch (FixClient.LogonFailed e) {
                problem = e.getMessage();
            }
            if (client != null) {
                client.close();
            }
            if (!waiting) {
                out.println("waiting for the server at " + target.where() + " (" + problem + "); retrying the "
                    + "connection and the Logon until --timeout (" + timeoutSeconds + " s)");
                waiting = true;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new Unavailable("no fixmatch server answered at " + target.where() + " within " + timeoutSeconds
                    + " s (--timeout); last attempt: " + problem);
            }
            Thread.sleep(Math.min(RETRY_MILLIS, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
        }
    }
}
