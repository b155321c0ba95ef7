package io.fixmatch.it;

import io.fixmatch.server.FixmatchServer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.List;

/**
 * What a whole-server test started, closed after each test however it ended: the QuickFIX/J clients it logged on
 * (stopped forcibly, so a broken session cannot hang the clean-up) and the server it runs now (a test that restarts
 * the server hands each new one to {@link #use}). Register with {@code @RegisterExtension}.
 */
final class ServerAndClients implements AfterEachCallback {
    private final List<QfjClient> clients = new ArrayList<>();
    private FixmatchServer server;

    /** The server the test runs from now on: closed after the test (a replaced one is the test's to close). */
    FixmatchServer use(FixmatchServer started) {
        server = started;
        return started;
    }

    /** A client stopped after the test; the test starts it when it wants. */
    QfjClient add(QfjClient client) {
        clients.add(client);
        return client;
    }

    /** A QuickFIX/J session with default options, logged on to {@code port}. */
    QfjClient logOn(String compId, int port) throws Exception {
        QfjClient client = add(new QfjClient(compId, port, new QfjClient.Options()));
        client.start();
        client.awaitLogons(1);
        return client;
    }

    List<QfjClient> clients() {
        return clients;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        clients.forEach(QfjClient::stopForcibly);
        TestServers.closeQuietly(server);
    }
}
