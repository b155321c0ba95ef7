package io.fixmatch.it.crash;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class that runs whole venues of processes (nodes, gateways, servers) under load, which keeps both cores of
 * this machine busy: the server module runs these one at a time, after the other tests, which run two test JVMs at a
 * time (server/pom.xml, execution {@code whole-venue}; docs/TESTING.md).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(WholeVenue.TAG)
@interface WholeVenue {
    String TAG = "whole-venue";
}
