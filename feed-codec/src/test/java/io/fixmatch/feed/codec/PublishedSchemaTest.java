package io.fixmatch.feed.codec;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** The feed's SBE schema published for subscribers (docs/) is the one the codecs are generated from. */
class PublishedSchemaTest {
    @Test
    void docsCopyIsIdenticalToTheSchemaTheCodecsAreBuiltFrom() throws IOException {
        assertArrayEquals(Files.readAllBytes(Path.of("src", "main", "sbe", "fixmatch-feed.xml")),
            Files.readAllBytes(Path.of("..", "docs", "fixmatch-feed.xml")),
            "docs/fixmatch-feed.xml differs from feed-codec/src/main/sbe/fixmatch-feed.xml: copy the schema over it");
    }
}
