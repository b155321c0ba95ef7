package io.fixmatch.loadgen.flow.replay;

import io.fixmatch.loadgen.flow.RequestKind;

/**
 * One request of a recorded flow, as read from the recording (before mapping).
 *
 * @param timeNanos   when it was recorded (epoch ns; only differences matter)
 * @param kind        NEW_ORDER, CANCEL or REPLACE
 * @param session     the recorded session (the client's CompID)
 * @param clOrdId     its ClOrdID in that session
 * @param origClOrdId the order a cancel or replace acts on, or null
 * @param symbol      the symbol
 * @param side        FIX Side: '1' buy, '2' sell
 * @param ordType     FIX OrdType: '1' market, '2' limit (0 for a cancel)
 * @param tif         FIX TimeInForce, or 0 when not recorded (the server's default, day)
 * @param price       the limit price as recorded (decimal text), or null
 * @param quantity    the quantity (0 for a cancel)
 */
public record RecordedRequest(long timeNanos, RequestKind kind, String session, String clOrdId, String origClOrdId,
                              String symbol, char side, char ordType, char tif, String price, long quantity) {
}
