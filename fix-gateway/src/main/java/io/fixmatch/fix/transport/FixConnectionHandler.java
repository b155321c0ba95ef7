package io.fixmatch.fix.transport;

import io.fixmatch.fix.codec.FixFramer;
import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixTags;
import io.fixmatch.fix.codec.FixWriter;
import io.fixmatch.fix.codec.MsgTypes;
import io.fixmatch.fix.session.FixSession;
import io.fixmatch.fix.session.SessionRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * One TCP connection: frames the incoming bytes into FIX messages, binds the connection to its session at Logon,
 * then hands every message to that session. Runs on the connection's event loop.
 *
 * <p>Before Logon, anything but a valid Logon for a configured, not-yet-connected session is answered with a
 * Logout (MsgSeqNum 1, outside any session's numbering) and the connection is closed.
 */
final class FixConnectionHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(FixConnectionHandler.class);

    private final SessionRegistry registry;
    private final GatewaySettings settings;
    private final FixFramer framer;
    private final byte[] frame;
    private final FixMessage message = new FixMessage();
    private ChannelHandlerContext context;
    private ByteBuf cumulation;
    /** The cumulation's memory as the codec sees it (re-pointed before each scan: the buffer may have moved). */
    private final UnsafeBuffer cumulationView = new UnsafeBuffer(0, 0);
    private ChannelTransport transport;
    private FixSession session;
    private ScheduledFuture<?> timer;
    private long connectedAtMs;
    private boolean closing;

    FixConnectionHandler(SessionRegistry registry, GatewaySettings settings) {
        this.registry = registry;
        this.settings = settings;
        this.framer = new FixFramer(settings.maxMessageSize());
        this.frame = new byte[settings.maxMessageSize()];
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        context = ctx;
        connectedAtMs = System.currentTimeMillis();
        transport = new ChannelTransport(ctx.channel(), settings.maxPendingBytes());
        cumulation = ctx.alloc().buffer(settings.maxMessageSize());
        timer = ctx.executor().scheduleAtFixedRate(this::onTimer, 1, 1, TimeUnit.SECONDS);
        LOG.info("connection from {}", ctx.channel().remoteAddress());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            cumulation.writeBytes(in);
        } finally {
            in.release();
        }
        long nowMs = System.currentTimeMillis();
        while (!closing) {
            int kind = framer.scan(view(cumulation), cumulation.readerIndex(), cumulation.writerIndex());
            if (kind == FixFramer.NEED_MORE) {
                break;
            }
            int length = framer.length();
            switch (kind) {
                case FixFramer.FRAME -> {
                    cumulation.readBytes(frame, 0, length);
                    onFrame(length, nowMs);
                }
                case FixFramer.GARBLED -> {
                    LOG.warn("{}: skipped {} garbled bytes", who(), length);
                    cumulation.skipBytes(length);
                }
                case FixFramer.BAD_CHECKSUM -> {
                    LOG.warn("{}: ignored a message with a wrong CheckSum", who());
                    cumulation.skipBytes(length);
                }
                case FixFramer.TOO_LARGE -> refuseStream("message of " + length + " bytes exceeds the maximum of "
                    + settings.maxMessageSize(), nowMs);
                case FixFramer.WRONG_BEGIN_STRING -> refuseStream("BeginString must be FIX.4.4", nowMs);
                default -> throw new IllegalStateException("framer result " + kind);
            }
        }
        cumulation.discardSomeReadBytes();
    }

    private UnsafeBuffer view(ByteBuf buffer) {
        if (buffer.hasMemoryAddress()) {
            cumulationView.wrap(buffer.memoryAddress(), buffer.capacity());
        } else {
            cumulationView.wrap(buffer.array(), buffer.arrayOffset(), buffer.capacity());
        }
        return cumulationView;
    }

    private void onFrame(int length, long nowMs) {
        int parsed = FixParser.parse(frame, 0, length, message);
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
            session.onMessage(message, nowMs);
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
        if (!candidate.credentialsMatch(message)) {
            refuseUnbound("invalid Username or Password", nowMs);
            return;
        }
        switch (candidate.onLogon(message, transport, nowMs)) {
            case LOGGED_ON -> session = candidate;
            case REFUSED -> closing = true;
            case ALREADY_LOGGED_ON -> refuseUnbound("session " + candidate.name() + " is already logged on", nowMs);
        }
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

    /** The byte stream cannot be trusted any more: Logout (in the session if there is one), then close. */
    private void refuseStream(String text, long nowMs) {
        LOG.warn("{}: {}; closing", who(), text);
        if (session != null) {
            session.logout(text, nowMs);
            transport.disconnect();
            closing = true;
        } else {
            refuseUnbound(text, nowMs);
        }
    }

    private void onTimer() {
        long nowMs = System.currentTimeMillis();
        if (session == null) {
            if (!closing && nowMs - connectedAtMs > settings.timings().logonTimeoutMs()) {
                LOG.warn("{}: no Logon within {} ms; closing", who(), settings.timings().logonTimeoutMs());
                closing = true;
                context.close();
            }
            return;
        }
        session.onTimer(nowMs);
        if (transport.tooFarBehind()) {
            LOG.warn("{}: slow consumer, {} bytes unsent; disconnecting (messages are kept for resend)", who(),
                transport.unsentBytes());
            context.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (timer != null) {
            timer.cancel(false);
        }
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
        LOG.info("{}: connection closed", who());
        if (session != null) {
            session.onConnectionClosed();
        }
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
