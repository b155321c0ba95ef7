package io.fixmatch.fix.app;

import io.fixmatch.fix.dictionary.FixDictionary;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * fixmatch's own FIX 4.4 data dictionary: {@value #RESOURCE} on the classpath (fix-gateway's resources; the same
 * file is published as docs/fixmatch-FIX44.xml for counterparties). What the gateway accepts is exactly what it
 * lists; validate incoming messages with a {@link io.fixmatch.fix.dictionary.DictionaryValidator} over it.
 */
public final class VenueDictionary {
    public static final String RESOURCE = "fixmatch-FIX44.xml";
    private static final FixDictionary DICTIONARY = read();

    private VenueDictionary() {
    }

    /** The dictionary, read once. */
    public static FixDictionary get() {
        return DICTIONARY;
    }

    private static FixDictionary read() {
        try (InputStream in = VenueDictionary.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " missing from the classpath");
            }
            return FixDictionary.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
