package io.fixmatch.server.admin;

import io.fixmatch.engine.api.RejectReason;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.metrics.EngineCounters;
import io.fixmatch.fix.app.OrderEntry;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The order flow as the matching thread counted it ({@link EngineCounters}: orders accepted, rejected by reason,
 * canceled, replaced, trades and quantity by symbol) and the requests the gateways refused before the engine, plus
 * which symbols are halted. Read at scrape time; nothing here writes.
 */
final class TradingMetrics {
    /** The reasons a gateway refuses a request itself (the rest are the engine's). */
    private static final List<RejectReason> GATEWAY_REASONS = List.of(RejectReason.SERVER_BUSY,
        RejectReason.UNKNOWN_SYMBOL, RejectReason.PRICE_NOT_ON_TICK, RejectReason.CLUSTER_UNAVAILABLE);

    private TradingMetrics() {
    }

    /** @param sessions each session's CompID, in the order of {@code orderEntries} */
    static void register(PrometheusRegistry registry, EngineCounters engine, List<SymbolSpec> symbols,
                         List<String> sessions, List<OrderEntry> orderEntries, EngineOperations operations) {
        counter(registry, "fixmatch_commands_total", "Commands the matching thread processed (order status requests"
            + " and the admin endpoint's book queries included)", engine::commandsProcessed);
        counter(registry, "fixmatch_journal_appended_commands_total", "Commands appended to the journal (every"
            + " command that can change state)", engine::commandsJournaled);
        counter(registry, "fixmatch_journal_refused_commands_total",
            "Commands refused because the journal could not record them (disk full, I/O error)",
            engine::journalRefusals);
        counter(registry, "fixmatch_orders_accepted_total", "New orders the engine accepted", engine::ordersAccepted);
        byReason(registry, "fixmatch_orders_rejected_total", "New orders the engine rejected, by reason",
            engine::ordersRejected);
        counter(registry, "fixmatch_orders_canceled_total",
            "Orders canceled: on request, by cancel-all, or the unfilled rest of IOC, FOK and market orders",
            engine::ordersCanceled);
        counter(registry, "fixmatch_orders_replaced_total", "Orders replaced", engine::ordersReplaced);
        byReason(registry, "fixmatch_cancels_rejected_total", "Cancel requests refused, by reason",
            engine::cancelsRejected);
        byReason(registry, "fixmatch_replaces_rejected_total", "Cancel/replace requests refused, by reason",
            engine::replacesRejected);
        bySymbol(registry, "fixmatch_trades_total", "Trades, by symbol", symbols, engine::trades);
        bySymbol(registry, "fixmatch_traded_quantity_total", "Quantity traded, by symbol (lots)", symbols,
            engine::tradedQuantity);
        CounterWithCallback.builder().name("fixmatch_gateway_refused_total")
            .help("Requests a gateway refused before the engine saw them (server busy: the inbound ring was full),"
                + " by session and reason")
            .labelNames("session", "reason")
            .callback(callback -> {
                for (int i = 0; i < orderEntries.size(); i++) {
                    for (RejectReason reason : GATEWAY_REASONS) {
                        callback.call(orderEntries.get(i).refusedCount(reason), sessions.get(i), reason.name());
                    }
                }
            })
            .register(registry);
        GaugeWithCallback.builder().name("fixmatch_symbol_halted")
            .help("1 while the operator has halted trading in the symbol")
            .labelNames("symbol")
            .callback(callback -> {
                for (int id = 0; id < symbols.size(); id++) {
                    callback.call(operations.isHalted(id) ? 1 : 0, symbols.get(id).name());
                }
            })
            .register(registry);
    }

    private static void counter(PrometheusRegistry registry, String name, String help,
                                java.util.function.LongSupplier value) {
        CounterWithCallback.builder().name(name).help(help)
            .callback(callback -> callback.call(value.getAsLong()))
            .register(registry);
    }

    private static void byReason(PrometheusRegistry registry, String name, String help,
                                 ToLongFunction<RejectReason> value) {
        CounterWithCallback.builder().name(name).help(help).labelNames("reason")
            .callback(callback -> {
                for (int i = 0; i < RejectReason.count(); i++) {
                    RejectReason reason = RejectReason.fromOrdinal(i);
                    if (reason != RejectReason.NONE) {
                        callback.call(value.applyAsLong(reason), reason.name());
                    }
                }
            })
            .register(registry);
    }

    private static void bySymbol(PrometheusRegistry registry, String name, String help, List<SymbolSpec> symbols,
                                 java.util.function.IntToLongFunction value) {
        CounterWithCallback.builder().name(name).help(help).labelNames("symbol")
            .callback(callback -> {
                for (int id = 0; id < symbols.size(); id++) {
                    callback.call(value.applyAsLong(id), symbols.get(id).name());
                }
            })
            .register(registry);
    }
}
