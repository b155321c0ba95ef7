package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.ExecutionEvent;
import org.agrona.DirectBuffer;

/** The consumer of an {@link OutboundEventRing}: each event with the trace of the command that caused it. */
@FunctionalInterface
public interface TracedEventSink {
    /**
     * @param event reused after this returns
     * @param trace the stamps of the causing command if it was traced, else null; reused after this returns
     */
    void onEvent(ExecutionEvent event, CommandTrace trace);

    /**
     * Every event of the commands up to this journal position has been handed over (a snapshot covers them): once
     * they are stored, the consumer's stores can say so, and recovery may start from that snapshot.
     */
    default void onStoredThrough(long journalPosition) {
    }

    /**
     * One command's market data, after its events: {@code length} bytes at {@code offset} in the
     * {@code MarketDataCodec} form. Only while the runtime publishes market data. Valid until this returns.
     */
    default void onMarketData(DirectBuffer buffer, int offset, int length) {
    }

    /**
     * A copy of another owner's event for the drop-copy session {@code recipientOwner} (see {@link DropCopyRoutes}).
     *
     * @param event reused after this returns
     */
    default void onCopy(int recipientOwner, ExecutionEvent event) {
    }

    /**
     * The next record this sink is handed (an event, a copy, a session's own message) is message {@code seqNum} of
     * its session, numbered by the cluster that owns the sessions (see {@code SessionCodec}). Never in a standalone
     * server, where each session numbers its own messages.
     */
    default void onNumber(long seqNum) {
    }

    /**
     * One of {@code SessionCodec}'s records for the sessions of a gateway of a cluster (a Logon's claim granted or
     * refused, a session taken over, a message of the gateway's own numbered, a resend's answer, the write lease).
     * Valid until this returns.
     */
    default void onSessionRecord(int type, DirectBuffer buffer, int offset, int length) {
    }
}
