package io.fixmatch.server.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;

/**
 * Every request of the admin endpoint: checks the bearer token (when one is configured, on every route but the
 * open ones), finds the route, runs its endpoint, writes the answer. Unknown paths get 404, a known path with
 * another method 405, a failing endpoint 500 (and an ERROR line): always a JSON body saying why.
 */
final class AdminHandler implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);
    private static final String BEARER = "Bearer ";

    private final List<Route> routes;
    private final byte[] token;

    /** @param token the bearer token every non-open route requires, or null for none */
    AdminHandler(List<Route> routes, String token) {
        this.routes = List.copyOf(routes);
        this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try {
            AdminResponse response;
            try {
                response = respond(exchange);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                response = AdminResponse.error(503, "interrupted: the server is stopping");
            } catch (Exception e) {
                LOG.error("admin endpoint: {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
                response = AdminResponse.error(500, "internal error: " + e);
            }
            if (response.status() == 401) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"fixmatch-admin\"");
            }
            exchange.getResponseHeaders().set("Content-Type", response.contentType());
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(response.status(), head ? -1 : response.body().length);
            if (!head) {
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(response.body());
                }
            }
        } finally {
            exchange.close();
        }
    }

    private AdminResponse respond(HttpExchange exchange) throws Exception {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath();
        Set<String> allowed = new TreeSet<>();
        for (Route route : routes) {
            Matcher matcher = route.path().matcher(path);
            if (!matcher.matches()) {
                continue;
            }
            if (!route.method().equals(method) && !(method.equals("HEAD") && route.method().equals("GET"))) {
                allowed.add(route.method());
                continue;
            }
            if (!route.open() && !authorized(exchange.getRequestHeaders().getFirst("Authorization"))) {
                return AdminResponse.error(401, "missing or wrong bearer token (Authorization: Bearer <admin.token>)");
            }
            AdminRequest request = new AdminRequest(matcher, AdminRequest.parseQuery(exchange.getRequestURI()
                .getRawQuery()), String.valueOf(exchange.getRemoteAddress()));
            return route.endpoint().handle(request);
        }
        if (!allowed.isEmpty()) {
            exchange.getResponseHeaders().set("Allow", String.join(", ", allowed));
            return AdminResponse.error(405, method + " is not allowed on " + path + "; use " + allowed);
        }
        return AdminResponse.error(404, "no such path: " + path);
    }

    /** Compared in constant time, so the answer's timing says nothing about how much of a guess was right. */
    private boolean authorized(String header) {
        if (token == null) {
            return true;
        }
        if (header == null || !header.startsWith(BEARER)) {
            return false;
        }
        return MessageDigest.isEqual(token, header.substring(BEARER.length()).trim().getBytes(StandardCharsets.UTF_8));
    }
}
