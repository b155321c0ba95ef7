package io.fixmatch.fix.transport;

import io.fixmatch.fix.session.SessionTimings;

/**
 * The acceptor's network settings.
 *
 * @param host            address to bind
 * @param port            TCP port
 * @param ioThreads       Netty event loop threads
 * @param maxMessageSize  largest accepted FIX message, bytes
 * @param maxPendingBytes unsent bytes a client may fall behind before it is disconnected as a slow consumer
 * @param timings         session timers
 */
public record GatewaySettings(String host, int port, int ioThreads, int maxMessageSize, long maxPendingBytes,
                              SessionTimings timings) {
}
