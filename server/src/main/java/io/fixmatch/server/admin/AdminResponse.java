package io.fixmatch.server.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** What an admin endpoint answers: a status, a content type and the body. */
record AdminResponse(int status, String contentType, byte[] body) {
    static final String JSON_TYPE = "application/json; charset=utf-8";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** {@code value} as JSON (records, maps, lists). */
    static AdminResponse json(int status, Object value) {
        try {
            return new AdminResponse(status, JSON_TYPE, JSON.writeValueAsBytes(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** An error: {@code {"error": message}}. */
    static AdminResponse error(int status, String message) {
        return json(status, Map.of("error", message));
    }

    static AdminResponse text(int status, String contentType, String body) {
        return new AdminResponse(status, contentType, body.getBytes(StandardCharsets.UTF_8));
    }
}
