package io.fixmatch.server.admin;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An admin HTTP listener: the JDK's HTTP server on one daemon thread of its own, its routes behind the bearer token
 * (when one is set), shared by the server's and the cluster nodes' admin endpoints.
 */
final class AdminHttp implements AutoCloseable {
    private final HttpServer http;
    private final ExecutorService executor;

    private AdminHttp(HttpServer http, ExecutorService executor) {
        this.http = http;
        this.executor = executor;
    }

    /** @throws UncheckedIOException if the address cannot be bound (the port is taken, say) */
    static AdminHttp start(String host, int port, String token, List<Route> routes, String threadName) {
        HttpServer http;
        try {
            http = HttpServer.create(new InetSocketAddress(host, port), 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the admin endpoint on " + host + ":" + port + ": "
                + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
        http.createContext("/", new AdminHandler(routes, token));
        http.setExecutor(executor);
        http.start();
        return new AdminHttp(http, executor);
    }

    int port() {
        return http.getAddress().getPort();
    }

    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
    }
}
