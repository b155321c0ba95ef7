package io.fixmatch.fix.app;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** The dictionary published for counterparties (docs/) is the one the gateway validates with. */
class PublishedDictionaryTest {
    @Test
    void docsCopyIsIdenticalToTheResource() throws IOException {
        Path published = Path.of("..", "docs", VenueDictionary.RESOURCE);
        try (InputStream in = VenueDictionary.class.getClassLoader().getResourceAsStream(VenueDictionary.RESOURCE)) {
            assertNotNull(in, VenueDictionary.RESOURCE + " on the classpath");
            assertArrayEquals(in.readAllBytes(), Files.readAllBytes(published),
                "docs/" + VenueDictionary.RESOURCE + " differs from fix-gateway/src/main/resources/"
                    + VenueDictionary.RESOURCE + ": copy the resource over it");
        }
    }
}
