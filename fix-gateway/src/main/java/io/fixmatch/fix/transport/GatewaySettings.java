package io.fixmatch.fix.transport;

import io.fixmatch.fix.gateway.GatewayIdle;
import io.fixmatch.fix.session.SessionTimings;

import java.util.List;

/**
 * The acceptor's network and threading settings.
 *
 * @param host            address to bind
 * @param port            TCP port
 * @param threads         gateway threads (each one Netty event loop owning a fixed share of the sessions)
 * @param idle            what a gateway thread does when idle
 * @param transport       the sockets' transport: {@code auto} or a {@link Transport}'s name
 * @param cpus            the CPU of each gateway thread in turn (-1: unpinned); missing entries mean unpinned
 * @param maxMessageSize  largest accepted FIX message, bytes
 * @param maxPendingBytes unsent bytes a client may fall behind before it is disconnected as a slow consumer
 * @param timings         session timers
 * @param limits          what one connection may do before it is closed
 * @param tls             TLS on the acceptor, or null for plain TCP
 */
public record GatewaySettings(String host, int port, int threads, GatewayIdle idle, String transport,
                              List<Integer> cpus, int maxMessageSize, long maxPendingBytes, SessionTimings timings,
                              ConnectionLimits limits, TlsSettings tls) {
    public GatewaySettings {
        cpus = List.copyOf(cpus);
        if (threads < 1) {
            throw new IllegalArgumentException("gateway threads must be at least 1, was " + threads);
        }
        Transport.checkName(transport);
    }

    /** The CPU of gateway {@code index}, or -1. */
    public int cpuOf(int index) {
        return index < cpus.size() ? cpus.get(index) : -1;
    }

    public GatewaySettings withPort(int value) {
        return new GatewaySettings(host, value, threads, idle, transport, cpus, maxMessageSize, maxPendingBytes, timings,
            limits, tls);
    }
}
