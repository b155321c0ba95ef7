package io.fixmatch.feed.codec;

import io.fixmatch.feed.sbe.Side;
import io.fixmatch.feed.sbe.TradingPhase;
import io.fixmatch.feed.sbe.UpdateAction;

/** The incremental stream's messages, decoded ({@link FeedMessageReader}), each with its sequence number. */
public interface FeedListener {
    void onLevel(long sequence, int symbolId, Side side, UpdateAction action, long price, long quantity);

    void onTrade(long sequence, int symbolId, long price, long quantity);

    void onIndicative(long sequence, int symbolId, long price, long volume);

    void onPhase(long sequence, int symbolId, TradingPhase phase);

    void onHalt(long sequence, int symbolId, boolean halted);
}
