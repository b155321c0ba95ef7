package io.fixmatch.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fixmatch.server.WaitBounds;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/** A real HTTP client (java.net.http) of the admin endpoint, with an optional bearer token. */
final class AdminClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = WaitBounds.ANSWER;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final String base;
    private final String token;

    AdminClient(int port, String token) {
        this.base = "http://127.0.0.1:" + port;
        this.token = token;
    }

    AdminClient withToken(String otherToken) {
        return new AdminClient(Integer.parseInt(base.substring(base.lastIndexOf(':') + 1)), otherToken);
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(request(path).GET());
    }

    HttpResponse<String> post(String path) throws IOException, InterruptedException {
        return send(request(path).POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** GET, expecting {@code status}; the body as JSON. */
    JsonNode getJson(String path, int status) throws IOException, InterruptedException {
        return json(get(path), status);
    }

    /** POST, expecting {@code status}; the body as JSON. */
    JsonNode postJson(String path, int status) throws IOException, InterruptedException {
        return json(post(path), status);
    }

    /** The text of {@code GET /metrics}, which must answer 200 in the Prometheus text format. */
    Metrics metrics() throws IOException, InterruptedException {
        HttpResponse<String> response = get("/metrics");
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("text/plain; version=0.0.4; charset=utf-8",
            response.headers().firstValue("Content-Type").orElse(""));
        return new Metrics(response.body());
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT);
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        return builder;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response, int status) throws IOException {
        assertEquals(status, response.statusCode(), response.request().method() + " " + response.request().uri()
            + ": " + response.body());
        assertEquals("application/json; charset=utf-8", response.headers().firstValue("Content-Type").orElse(""));
        return JSON.readTree(response.body());
    }

    /** One scrape: the value of a series, exactly as written ({@code name{label="value",...}}). */
    record Metrics(String text) {
        double value(String series) {
            Matcher line = Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE).matcher(text);
            if (!line.find()) {
                return fail("no series " + series + " in the scrape:\n" + text);
            }
            return Double.parseDouble(line.group(1));
        }

        /** The sum of every series of the metric {@code name}, whatever its labels. */
        double sum(String name) {
            Matcher line = Pattern.compile("^" + Pattern.quote(name) + "(\\{[^}]*})? (\\S+)$", Pattern.MULTILINE)
                .matcher(text);
            double sum = 0;
            boolean found = false;
            while (line.find()) {
                sum += Double.parseDouble(line.group(2));
                found = true;
            }
            return found ? sum : fail("no series of " + name + " in the scrape:\n" + text);
        }

        boolean has(String series) {
            return Pattern.compile("^" + Pattern.quote(series) + "[ {]", Pattern.MULTILINE).matcher(text).find();
        }
    }
}
