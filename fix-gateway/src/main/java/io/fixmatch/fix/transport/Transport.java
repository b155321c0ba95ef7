package io.fixmatch.fix.transport;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;

import java.util.Arrays;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The kernel interface the gateways' sockets run on ({@code gateway.transport}): epoll (Linux), the JDK's NIO
 * (anywhere), or io_uring (Linux 5.x and later, when the kernel allows it: a cycle's writes and the collection of its
 * reads go in one system call, and polling a ring that has nothing is no system call at all). {@code auto} takes
 * epoll where it runs, else NIO. io_uring only when named: Netty 4.2's io_uring transport allocates an object per
 * read and per write on the gateway thread, which the hot path must not (docs/PERFORMANCE.md, "Cost per order").
 */
public enum Transport {
    IO_URING("io_uring", () -> IoUring.isAvailable() ? null : IoUring.unavailabilityCause(),
        IoUringIoHandler::newFactory, IoUringServerSocketChannel::new),
    EPOLL("epoll", () -> Epoll.isAvailable() ? null : Epoll.unavailabilityCause(), EpollIoHandler::newFactory,
        EpollServerSocketChannel::new),
    NIO("nio", () -> null, NioIoHandler::newFactory, NioServerSocketChannel::new);

    /** The configuration's word for "the best this machine offers". */
    public static final String AUTO = "auto";

    private final String configName;
    /** Asked only when needed: a transport's classes load its native library, or say why they cannot. */
    private final Supplier<Throwable> unavailability;
    private final Supplier<IoHandlerFactory> handlers;
    private final Supplier<ServerChannel> serverChannels;

    Transport(String configName, Supplier<Throwable> unavailability, Supplier<IoHandlerFactory> handlers,
              Supplier<ServerChannel> serverChannels) {
        this.configName = configName;
        this.unavailability = unavailability;
        this.handlers = handlers;
        this.serverChannels = serverChannels;
    }

    public String configName() {
        return configName;
    }

    /** Why this machine (kernel, native library, security policy) cannot run it, or null if it can. */
    Throwable unavailabilityCause() {
        return unavailability.get();
    }

    /** One event loop's handler of its sockets. */
    IoHandlerFactory ioHandlerFactory() {
        return handlers.get();
    }

    /** A new, unbound listening channel of this transport. */
    ServerChannel newServerChannel() {
        return serverChannels.get();
    }

    /** Throws {@link IllegalArgumentException} unless {@code name} is {@code auto} or a transport's name. */
    public static void checkName(String name) {
        if (!name.equals(AUTO) && Arrays.stream(values()).noneMatch(t -> t.configName.equals(name))) {
            throw new IllegalArgumentException("unknown transport '" + name + "' (" + AUTO + ", "
                + Arrays.stream(values()).map(Transport::configName).collect(Collectors.joining(", ")) + ")");
        }
    }

    /**
     * The transport {@code name} ({@code auto} or a transport's name) selects on this machine: {@code auto} is epoll
     * where it runs, else NIO; a named transport this machine cannot run is an {@link IllegalStateException} saying
     * why.
     */
    public static Transport choose(String name) {
        checkName(name);
        if (name.equals(AUTO)) {
            return EPOLL.unavailabilityCause() == null ? EPOLL : NIO;
        }
        Transport named = Arrays.stream(values()).filter(t -> t.configName.equals(name)).findFirst().orElseThrow();
        Throwable cause = named.unavailabilityCause();
        if (cause != null) {
            throw new IllegalStateException("gateway.transport=" + name + " is not available here: " + cause, cause);
        }
        return named;
    }

    /** For the start line: why {@code auto} did not take epoll (NIO chosen), or an empty string. */
    public String passedOver() {
        return this == NIO && EPOLL.unavailabilityCause() != null ? "epoll: " + EPOLL.unavailabilityCause() : "";
    }
}
