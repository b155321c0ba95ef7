package io.fixmatch.loadgen.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** The report's JSON, with Jackson: writing maps, lists, numbers and strings (indented), reading trees back. */
public final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode read(Path file) throws IOException {
        return MAPPER.readTree(file.toFile());
    }

    public static JsonNode parse(String text) throws IOException {
        return MAPPER.readTree(text);
    }
}
