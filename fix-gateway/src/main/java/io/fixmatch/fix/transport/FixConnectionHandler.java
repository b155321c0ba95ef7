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
 * Logout (MsgSeqNum 1, outside any session's numbering) and the connection is closed.
 */
final class FixConnectionHandler extends ChannelInboundHandlerAdapter implements GatewayConnection {
    private static final Logger LOG = LoggerFactory.getLogger(FixConnectionHandler.class);

    private final SessionRegistry registry;
    private final Gateways gateways;
    private final GatewaySettings settings;
    private final FixFramer framer;
    private final byte[] frame;
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

    FixConnectionHandler(SessionRegistry registry, Gateways gateways, GatewaySettings settings) {
        this.registry = registry;
        this.gateways = gateways;
        this.settings = settings;
        this.framer = new FixFramer(settings.maxMessageSize());
        this.frame = new byte[settings.maxMessageSize()];
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        context = ctx;
        gateway = gateways.onLoop(ctx.channel().eventLoop());
        connectedAtMs = System.currentTimeMillis(); // not the cycle's clock: the loop may have waited since
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
                    bytes.getBytes(start, frame, 0, length);
                    buffer.readerIndex(start + length);
                    onFrame(length);
                    if (moving) {
                        buffer.readerIndex(start); // the Logon is processed again on the session's gateway
                    }
                }
                case FixFramer.GARBLED -> {
                    LOG.warn("{}: skipped {} garbled bytes", who(), length);
                    buffer.readerIndex(start + length);
                    closeIfNotLoggedOn("garbled bytes");
                }
                case FixFramer.BAD_CHECKSUM -> {
                    LOG.warn("{}: ignored a message with a wrong CheckSum", who());
                    buffer.readerIndex(start + length);
                    closeIfNotLoggedOn("a message with a wrong CheckSum");
                }
                case FixFramer.TOO_LARGE -> refuseStream("message of " + length + " bytes exceeds the maximum of "
                    + settings.maxMessageSize());
                case FixFramer.WRONG_BEGIN_STRING -> refuseStream("Incorrect BeginString (FIX.4.4 required)");
                default -> throw new IllegalStateException("framer result " + kind);
            }
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
            if (parsed != FixParser.OK || message.msgType() != MsgTypes.LOGON) {
                refuseUnbound(parsed != FixParser.OK ? "malformed message before Logon"
                    : "the first message must be a Logon", nowMs);
            } else {
                onLogon(nowMs);
            }
            return;
        }
        if (parsed != FixParser.OK) {
            session.onMalformed(message, parsed, nowMs);
        } else {
            session.onMessage(message, nowMs, readNanos);
        }
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
            refuseUnbound("unknown SenderCompID " + message.stringValue(FixTags.SENDER_COMP_ID), nowMs);
            return;
        }
        Gateway owner = gateways.ofSession(candidate);
        if (owner != gateway) {
            moveTo(owner);
            return;
        }
        if (!candidate.credentialsMatch(message)) {
            refuseUnbound("invalid Username or Password", nowMs);
            return;
        }
        switch (candidate.onLogon(message, transport, nowMs)) {
            case LOGGED_ON -> {
                session = candidate;
                traced = candidate.config().latencyTrace();
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

    /** A Logout outside any session (MsgSeqNum 1), then close. */
    private void refuseUnbound(String text, long nowMs) {
        LOG.warn("{}: refused: {}", who(), text);
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
