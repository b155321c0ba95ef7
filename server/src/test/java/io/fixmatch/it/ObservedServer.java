package io.fixmatch.it;

import io.fixmatch.server.FixmatchServer;

import java.nio.file.Path;
import java.util.Map;

/**
 * A test server with a QuickFIX/J session (CLIENT2) logged on beside it: the well-behaved session whose service the
 * hostile-client tests check while another connection misbehaves. Its admin endpoint is on (any free port), for the
 * counts a test waits on.
 */
record ObservedServer(FixmatchServer server, QfjClient observer) implements AutoCloseable {

    /** Starts the server with {@code overrides} and logs the observer on; on failure leaves nothing running. */
    static ObservedServer start(Path data, Map<String, String> overrides) throws Exception {
        FixmatchServer server = TestServers.start(data, 0, overrides, TestServers.admin(null));
        try {
            return new ObservedServer(server, QfjClient.logOn("CLIENT2", server.port()));
        } catch (Throwable e) {
            TestServers.closeQuietly(server);
            throw e;
        }
    }

    @Override
    public void close() {
        observer.stopForcibly();
        TestServers.closeQuietly(server);
    }
}
