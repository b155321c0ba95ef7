package io.fixmatch.it;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A whole-server test (class or method) that applies to both modes: surefire runs it once standalone, then its
 * {@code cluster-mode} execution (server/pom.xml, {@code <groups>}{@value #TAG}) runs it again with
 * {@code fixmatch.test.mode=cluster}, where {@link TestServers#start} puts the engine on an embedded three-node
 * cluster and the server is its gateway.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(BothModes.TAG)
public @interface BothModes {
    /** The JUnit tag; server/pom.xml names it too. */
    String TAG = "both-modes";
}
