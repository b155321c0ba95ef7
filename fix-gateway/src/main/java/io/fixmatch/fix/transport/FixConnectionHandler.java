package io.fixmatch.fix.transport;

import io.fixmatch.fix.codec.FixFramer;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.gateway.Gateway;
import io.fixmatch.fix.gateway.GatewayConnection;
import io.fixmatch.fix.gateway.Gateways;
import io.fixmatch.fix.security.UnauthenticatedConnections;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.RejectedExecutionException;

/**
 * One TCP connection, on the gateway thread of its event loop: frames the incoming bytes where they were read,
 * binds the connection to its session at Logon, then hands every message to that session.
 *
 * <p>Bytes are framed in place in Netty's read buffer; only an incomplete message at the end of a read is copied
 * aside (into {@code partial}) to wait for the rest. Each whole message is copied once, into the parse buffer.
 *
 * <p>A session belongs to one gateway thread. A connection accepted on another gateway's event loop is moved to its
 * session's loop when its Logon arrives (Netty deregister, then register on the other loop), before the session is
 * touched; the Logon and whatever followed it are then processed there.
 *
 * <p>Before Logon, anything but a valid Logon for a configured, not-yet-connected session is answered with a
 * Logout (MsgSeqNum 1, outside any session's numbering) and the connection is closed. A failed Logon (unknown
 * SenderCompID, wrong Username or Password, an address the session does not allow) gets the same answer whatever
 * was wrong; the log says what. Limits (docs/FIX.md): a connection from a locked-out address is refused at once; over
 * the caps on connections not logged on, the oldest such connection is closed to let the new one in; garbage in a row beyond {@code fix.maxGarbledBytes} ends it; after
 * Logon, the session's messages beyond its rate are rejected, and twice the rate ends the connection.
 */
final class FixConnectionHandler extends ChannelInboundHandlerAdapter
    implements GatewayConnection, UnauthenticatedConnections.Connection {
    private static final Logger LOG = LoggerFactory.getLogger(FixConnectionHandler.class);
    /** The answer to every failed Logon: it does not say which part was wrong. */
    static final String LOGON_REFUSED = "Logon refused: invalid SenderCompID, Username, Password or source address";

    private final SessionRegistry registry;
    private final Gateways gateways;
    private final GatewaySettings settings;
    private final AcceptorGuards guards;
    private FixFramer framer;
    private byte[] frame;
    private final FixMessage message = new FixMessage();
    /** The memory of the buffer being framed, as the codec sees it (re-pointed for each buffer). */
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private ChannelHandlerContext context;
    private Gateway gateway;
    private ChannelTransport transport;
    /** An incomplete message kept from the previous read (and, while moving, everything read since). */
    private ByteBuf partial;
    private FixSession session;
    private boolean traced;
    private long readNanos;
    private long connectedAtMs;
    private boolean closing;
    private boolean moving;
    /** Its place among the connections not logged on (until its Logon arrives or it closes); null after. */
    private UnauthenticatedConnections.Entry unauthenticated;
    /** Bytes that were no message, in a row (reset by each valid message). */
    private long garbledInARow;
    /** After Logon: the session's inbound rate (kept across its connections), the Reject text for what exceeds it. */
    private MessageRateLimit rateLimit;
    private String overRateText;

    FixConnectionHandler(SessionRegistry registry, Gateways gateways, GatewaySettings settings,
                         AcceptorGuards guards) {
        this.registry = registry;
        this.gateways = gateways;
        this.settings = settings;
        this.guards = guards;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        context = ctx;
        gateway = gateways.onLoop(ctx.channel().eventLoop());
        connectedAtMs = System.currentTimeMillis(); // not the cycle's clock: the loop may have waited since
        unauthenticated = guards.admit(this, remoteAddress(), ctx.channel().remoteAddress(), connectedAtMs, LOG);
        if (unauthenticated == null) { // locked out
            closing = true;
            ctx.close();
            return;
        }
        framer = new FixFramer(settings.maxMessageSize()); // only for connections that stay
        frame = new byte[settings.maxMessageSize()];
        transport = new ChannelTransport(ctx.channel(), settings.maxPendingBytes(), gateway);
        partial = ctx.alloc().directBuffer(settings.maxMessageSize());
        gateway.addConnection(this);
        LOG.info("connection from {} on {}", ctx.channel().remoteAddress(), gateway.name());
        ctx.fireChannelActive();
    }

    /** After a move: now on the session's gateway thread, carry on with the Logon and what followed it. */
    @Override
    public void channelRegistered(ChannelHandlerContext ctx) {
        if (moving) {
            gateway = gateways.onLoop(ctx.channel().eventLoop());
            transport.movedTo(gateway);
            gateway.addConnection(this);
            gateway.onConnectionMovedIn();
            moving = false;
            LOG.info("{}: connection moved to {}, its session's gateway", who(), gateway.name());
            gateway.onRead();
            frameAll(partial);
            partial.discardReadBytes();
        }
        ctx.fireChannelRegistered();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            gateway.onRead();
            if (moving) {
                partial.writeBytes(in);
                return;
            }
            if (closing) {
                return;
            }
            // Traced sessions' commands carry it; before Logon it is taken too, as the Logon may bring a traced
            // session's first orders in the same read (and moves to another gateway keep it).
            readNanos = traced || session == null ? System.nanoTime() : 0;
            if (partial.isReadable()) {
                partial.writeBytes(in);
                frameAll(partial);
                partial.discardReadBytes();
            } else {
                frameAll(in);
                if (in.isReadable() && !closing) {
                    partial.writeBytes(in); // the start of a message whose end has not arrived
                }
            }
            if (!closing && gateway.pauseReadingIfCongested(this)) {
                ctx.channel().config().setAutoRead(false);
            }
        } finally {
            in.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        gateway.afterReads();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void resumeReading() {
        if (context.channel().isActive()) {
            context.channel().config().setAutoRead(true);
        }
    }

    /** Consumes every whole message of {@code buffer} (and garbage), leaving an incomplete one unread. */
    private void frameAll(ByteBuf buffer) {
        UnsafeBuffer bytes = view(buffer);
        while (!closing && !moving) {
            int start = buffer.readerIndex();
            int kind = framer.scan(bytes, start, buffer.writerIndex());
            if (kind == FixFramer.NEED_MORE) {
                return;
            }
            int length = framer.length();
            switch (kind) {
                case FixFramer.FRAME -> {
                    garbledInARow = 0;
                    bytes.getBytes(start, frame, 0, length);
                    buffer.readerIndex(start + length);
                    onFrame(length);
                    if (moving) {
                        buffer.readerIndex(start); // the Logon is processed again on the session's gateway
                    }
                }
                case FixFramer.GARBLED -> {
                    if (garbledInARow == 0) {
                        LOG.warn("{}: skipped {} garbled bytes", who(), length);
                    }
                    buffer.readerIndex(start + length);
                    closeIfNotLoggedOn("garbled bytes");
                    if (!closing) {
                        onGarbage(length);
                    }
                }
                case FixFramer.BAD_CHECKSUM -> {
                    if (garbledInARow == 0) {
                        LOG.warn("{}: ignored a message with a wrong CheckSum", who());
                    }
                    buffer.readerIndex(start + length);
                    closeIfNotLoggedOn("a message with a wrong CheckSum");
                    if (!closing) {
                        onGarbage(length);
                    }
                }
                case FixFramer.TOO_LARGE -> refuseStream("message of " + length + " bytes exceeds the maximum of "
                    + settings.maxMessageSize());
                case FixFramer.WRONG_BEGIN_STRING -> refuseStream("Incorrect BeginString (FIX.4.4 required)");
                default -> throw new IllegalStateException("framer result " + kind);
            }
        }
    }

    /**
     * Bytes that are no message: only the first of a run is logged; a run longer than the limit ends the connection
     * (a client sending noise, or a stream that lost its framing for good).
     */
    private void onGarbage(int length) {
        garbledInARow += length;
        if (garbledInARow > settings.limits().maxGarbledBytes()) {
            refuseStream(garbledInARow + " bytes in a row that are no FIX message (fix.maxGarbledBytes="
                + settings.limits().maxGarbledBytes() + ")");
        }
    }

    private UnsafeBuffer view(ByteBuf buffer) {
        if (buffer.hasMemoryAddress()) {
            view.wrap(buffer.memoryAddress(), buffer.capacity());
        } else if (buffer.hasArray()) {
            view.wrap(buffer.array(), buffer.arrayOffset(), buffer.capacity());
        } else {
            view.wrap(buffer.nioBuffer(0, buffer.capacity()));
        }
        return view;
    }

    private void onFrame(int length) {
        int parsed = FixParser.parse(frame, 0, length, message);
        long nowMs = gateway.nowMs();
        if (session == null) {
            if (parsed == FixParser.OK && message.msgType() != MsgTypes.LOGON
                && message.longValue(FixTags.MSG_SEQ_NUM) > 1) {
                closeMidSession();
            } else if (parsed != FixParser.OK || message.msgType() != MsgTypes.LOGON) {
                refuseUnbound(parsed != FixParser.OK ? "malformed message before Logon"
                    : "the first message must be a Logon", nowMs);
            } else if (releaseUnauthenticated()) {
                onLogon(nowMs);
            } else { // closed to make room for a newer connection just before its Logon came
                closing = true;
                context.close();
            }
            return;
        }
        if (message.msgType() != MsgTypes.LOGOUT) {
            int verdict = rateLimit.onMessage(nowMs);
            if (verdict != MessageRateLimit.ACCEPT) {
                overRate(verdict, nowMs);
                return;
            }
        }
        if (parsed != FixParser.OK) {
            session.onMalformed(message, parsed, nowMs);
        } else {
            session.onMessage(message, nowMs, readNanos);
        }
    }

    /** A message over the session's rate: rejected, or the end of the connection (see {@link MessageRateLimit}). */
    private void overRate(int verdict, long nowMs) {
        if (verdict == MessageRateLimit.DISCONNECT) {
            refuseStream("message rate limit exceeded: " + rateLimit.rejectedTotal() + " messages over "
                + rateLimit.perSecond() + " per second rejected");
            return;
        }
        if (rateLimit.firstRejectInWindow()) {
            LOG.warn("{}: over its limit of {} messages per second: rejecting the excess ({} so far)", who(),
                rateLimit.perSecond(), rateLimit.rejectedTotal());
        }
        session.rejectOverRateLimit(message, overRateText, nowMs);
    }

    private void onLogon(long nowMs) {
        if (!message.valueEquals(FixTags.TARGET_COMP_ID, registry.serverCompId())) {
            refuseUnbound("unknown TargetCompID " + message.stringValue(FixTags.TARGET_COMP_ID), nowMs);
            return;
        }
        int sender = message.indexOf(FixTags.SENDER_COMP_ID);
        FixSession candidate = sender < 0 ? null
            : registry.byClientCompId(frame, message.valueStartAt(sender), message.valueLengthAt(sender));
        if (candidate == null) {
            failLogon("unknown SenderCompID " + message.stringValue(FixTags.SENDER_COMP_ID), nowMs);
            return;
        }
        Gateway owner = gateways.ofSession(candidate);
        if (owner != gateway) {
            moveTo(owner);
            return;
        }
        boolean addressAllowed = candidate.config().allowedAddresses().allows(remoteAddress());
        boolean credentialsMatch = candidate.credentialsMatch(message); // always checked: same work either way
        if (!addressAllowed || !credentialsMatch) {
            failLogon(candidate.config().clientCompId() + (addressAllowed ? ": wrong Username or Password"
                : ": source address not in session." + candidate.config().clientCompId() + ".allowedAddresses ("
                + candidate.config().allowedAddresses() + ")"), nowMs);
            return;
        }
        MessageRateLimit limit = guards.rateLimits().of(candidate, nowMs);
        if (limit.onLogon(nowMs) != MessageRateLimit.ACCEPT) { // reconnecting is no way round the limit
            refuseUnbound("message rate limit exceeded: log on again later", nowMs);
            countFailure(nowMs); // a flooder that keeps coming back is locked out
            return;
        }
        switch (candidate.onLogon(message, transport, nowMs)) {
            case LOGGED_ON -> {
                if (candidate.clusterOwned()) {
                    transport.fence(); // from now on it speaks in the session's name: only under the lease
                }
                session = candidate;
                traced = candidate.config().latencyTrace();
                rateLimit = limit;
                overRateText = "message rate limit of " + candidate.config().maxMessagesPerSecond()
                    + " per second exceeded";
                guards.logonFailures().succeeded(remoteAddress());
            }
            case REFUSED -> closing = true;
            case ALREADY_LOGGED_ON -> refuseUnbound("session " + candidate.name() + " is already logged on", nowMs);
        }
    }

    /** Hands the connection to the gateway thread that owns its session; see {@link #channelRegistered}. */
    private void moveTo(Gateway target) {
        moving = true;
        gateway.removeConnection(this);
        Channel channel = context.channel();
        channel.deregister().addListener(deregistered -> {
            if (!deregistered.isSuccess()) {
                LOG.warn("{}: could not leave {}: {}", who(), gateway.name(), deregistered.cause().toString());
                channel.close();
                return;
            }
            ((EventLoop) target.eventLoop()).register(channel).addListener(registered -> {
                if (!registered.isSuccess()) {
                    LOG.warn("{}: could not move to {}: {}", who(), target.name(), registered.cause().toString());
                    channel.close();
                }
            });
        });
    }

    /**
     * A Logon that names no session, or fails its checks: logged with the reason, answered without it, counted
     * against the source address (which may lock it out).
     */
    private void failLogon(String reason, long nowMs) {
        LOG.warn("{}: Logon refused: {}", who(), reason);
        refuse(LOGON_REFUSED, nowMs);
        countFailure(nowMs);
    }

    /** A failed Logon counts against the source address, which may lock it out. */
    private void countFailure(long nowMs) {
        InetAddress address = remoteAddress();
        if (guards.logonFailures().failed(address, nowMs)) {
            LOG.warn("{}: {} failed Logons in a row: refusing its connections for {} ms", address,
                guards.logonFailures().maxFailures(), guards.logonFailures().lockoutMs());
        }
    }

    /**
     * Its Logon arrived, or it closed: no longer counted among the connections not logged on. False if it was closed
     * to make room already.
     */
    private boolean releaseUnauthenticated() {
        if (unauthenticated == null) {
            return true;
        }
        boolean counted = guards.unauthenticated().release(unauthenticated);
        unauthenticated = null;
        return counted;
    }

    /** Any thread: the oldest connection not logged on over a cap; closed on its own thread (logged by the caps). */
    @Override
    public void closeToMakeRoom() {
        try {
            context.channel().eventLoop().execute(() -> {
                if (!closing && session == null) {
                    closing = true;
                    context.close();
                }
            });
        } catch (RejectedExecutionException stopping) {
            // the gateway thread is stopping: the connection closes with it
        }
    }

    private InetAddress remoteAddress() {
        return context.channel().remoteAddress() instanceof InetSocketAddress socket ? socket.getAddress() : null;
    }

    /** A Logout outside any session (MsgSeqNum 1), then close. */
    /**
     * A first message that is not a Logon, numbered above 1: a client in the middle of its session that reconnected
     * without logging on (QuickFIX/J did so when it reconnected to another gateway). Closed without an answer: a
     * Logout here could only carry a number outside the session's numbering (the session's numbers are not known
     * before its Logon), one the client has already been sent; it logs on again on its next connection.
     */
    private void closeMidSession() {
        LOG.warn("{}: closed: the first message ({}, MsgSeqNum {}) is not a Logon", who(),
            message.stringValue(FixTags.MSG_TYPE), message.longValue(FixTags.MSG_SEQ_NUM));
        closing = true;
        transport.disconnect();
    }

    private void refuseUnbound(String text, long nowMs) {
        LOG.warn("{}: refused: {}", who(), text);
        refuse(text, nowMs);
    }

    private void refuse(String text, long nowMs) {
        FixWriter writer = new FixWriter(512 + text.length());
        int target = message.indexOf(FixTags.SENDER_COMP_ID);
        writer.begin(MsgTypes.LOGOUT).field(FixTags.SENDER_COMP_ID, registry.serverCompId());
        if (target >= 0 && message.valueLengthAt(target) <= 64) {
            writer.field(FixTags.TARGET_COMP_ID, frame, message.valueStartAt(target), message.valueLengthAt(target));
        } else {
            writer.field(FixTags.TARGET_COMP_ID, "UNKNOWN");
        }
        writer.field(FixTags.MSG_SEQ_NUM, 1L).timestamp(FixTags.SENDING_TIME, nowMs * 1_000_000L)
            .field(FixTags.TEXT, text).finish();
        transport.send(writer.buffer(), writer.start(), writer.length());
        transport.disconnect();
        closing = true;
    }

    /**
     * Before Logon, garbled input closes the connection without an answer (as QuickFIX/J does for a garbled Logon):
     * a peer that cannot frame its first message is not speaking FIX 4.4 to us. After Logon it is only skipped (FIX:
     * the next message shows the gap).
     */
    private void closeIfNotLoggedOn(String what) {
        if (session == null) {
            LOG.warn("{}: {} before Logon; closing", who(), what);
            closing = true;
            transport.disconnect();
        }
    }

    /** The byte stream cannot be trusted any more: Logout (in the session if there is one), then close. */
    private void refuseStream(String text) {
        LOG.warn("{}: {}; closing", who(), text);
        if (session != null) {
            session.logout(text, gateway.nowMs());
            transport.disconnect();
            closing = true;
        } else {
            refuseUnbound(text, gateway.nowMs());
        }
    }

    @Override
    public void onTimer(long nowMs) {
        if (closing || moving) {
            return;
        }
        if (session == null) {
            if (nowMs - connectedAtMs > settings.timings().logonTimeoutMs()) {
                LOG.warn("{}: no Logon within {} ms; closing", who(), settings.timings().logonTimeoutMs());
                closing = true;
                context.close();
            }
        } else if (transport.tooFarBehind()) {
            LOG.warn("{}: slow consumer, {} bytes unsent; disconnecting (messages are kept for resend)", who(),
                transport.unsentBytes());
            closing = true;
            context.close();
        }
    }

    @Override
    public void close() {
        closing = true;
        transport.disconnect();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closing = true;
        releaseUnauthenticated();
        if (transport == null) { // refused when accepted: nothing was set up
            ctx.fireChannelInactive();
            return;
        }
        if (partial != null) {
            partial.release();
            partial = null;
        }
        transport.release();
        LOG.info("{}: connection closed", who());
        if (session != null) {
            session.onConnectionClosed(); // cancel-on-disconnect is owed before the connection counts as gone
        }
        gateway.removeConnection(this);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.warn("{}: connection error, closing: {}", who(), cause.toString());
        ctx.close();
    }

    private String who() {
        return session != null ? session.name() : String.valueOf(context.channel().remoteAddress());
    }
}
