package io.fixmatch.fix.app;

import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.RejectReason;

/**
 * The Text(58) of a pre-trade risk reject, naming the limit and the numbers: "risk: order quantity 5000 over session
 * limit 1000", "risk: price 120.00 outside the session's price collar 95.00..105.00". Built in one reused
 * {@link StringBuilder} (appending numbers into its preallocated room allocates nothing); prices and notionals at the
 * symbol's price scale. One instance per writing thread.
 */
final class RiskRejectText {
    private final StringBuilder text = new StringBuilder(160);

    /** The Text for the event's reason: with its numbers for a risk limit, else the reason's own text. */
    CharSequence of(ExecutionEvent event, int priceScale) {
        RejectReason reason = event.rejectReason();
        text.setLength(0);
        switch (reason) {
            case RISK_ORDER_QUANTITY -> text.append("risk: order quantity ").append(event.riskValue())
                .append(" over session limit ").append(event.riskHigh());
            case RISK_NOTIONAL -> {
                text.append("risk: order notional ");
                decimal(event.riskValue(), priceScale);
                text.append(" over session limit ");
                decimal(event.riskHigh(), priceScale);
            }
            case RISK_OPEN_ORDERS -> text.append("risk: ").append(event.riskValue())
                .append(" open orders, at session limit ").append(event.riskHigh());
            case RISK_PRICE_COLLAR -> {
                text.append("risk: price ");
                decimal(event.riskValue(), priceScale);
                text.append(" outside the session's price collar ");
                decimal(event.riskLow(), priceScale);
                text.append("..");
                decimal(event.riskHigh(), priceScale);
            }
            default -> {
                return reason.text();
            }
        }
        return text;
    }

    /** {@code units} with {@code scale} decimals: 15010 at scale 2 is 150.10. */
    private void decimal(long units, int scale) {
        if (units < 0) {
            text.append('-');
            units = -units;
        }
        long unit = 1;
        for (int i = 0; i < scale; i++) {
            unit *= 10;
        }
        text.append(units / unit);
        if (scale > 0) {
            text.append('.');
            long fraction = units % unit;
            for (long digit = unit / 10; digit > 0; digit /= 10) {
                text.append((char) ('0' + fraction / digit % 10));
            }
        }
    }
}
