package io.fixmatch.server.admin;

import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.BookQueryAnswer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * The books' depth, from one book query per scrape (the matching thread answers it between two commands; see
 * {@code EngineView}): price levels, best price and the quantity there, per symbol and side, and the resting orders
 * of all books. Left out of a scrape while the server is not ready or when the engine does not answer in time.
 */
final class BookMetrics implements MultiCollector {
    private static final Logger LOG = LoggerFactory.getLogger(BookMetrics.class);
    private static final Side[] SIDES = {Side.BUY, Side.SELL};

    private final List<SymbolSpec> symbols;
    private final EngineOperations engine;
    private final Readiness readiness;

    BookMetrics(List<SymbolSpec> symbols, EngineOperations engine, Readiness readiness) {
        this.symbols = List.copyOf(symbols);
        this.engine = engine;
        this.readiness = readiness;
    }

    @Override
    public MetricSnapshots collect() {
        BookQueryAnswer answer = readiness.isReady() ? query() : null;
        if (answer == null) {
            return new MetricSnapshots();
        }
        GaugeSnapshot.Builder levels = GaugeSnapshot.builder().name("fixmatch_book_price_levels")
            .help("Non-empty price levels, by symbol and side");
        GaugeSnapshot.Builder best = GaugeSnapshot.builder().name("fixmatch_book_best_price")
            .help("Best price, by symbol and side (absent when the side is empty)");
        GaugeSnapshot.Builder bestQuantity = GaugeSnapshot.builder().name("fixmatch_book_best_quantity")
            .help("Quantity resting at the best price, by symbol and side");
        for (int id = 0; id < symbols.size(); id++) {
            SymbolSpec spec = symbols.get(id);
            for (Side side : SIDES) {
                Labels labels = Labels.of("symbol", spec.name(), "side", side == Side.BUY ? "bid" : "ask");
                int count = answer.levelCountOf(id, side);
                levels.dataPoint(point(count, labels));
                if (count > 0) {
                    best.dataPoint(point(BigDecimal.valueOf(answer.bestPriceOf(id, side), spec.priceScale())
                        .doubleValue(), labels));
                }
                bestQuantity.dataPoint(point(answer.bestQuantityOf(id, side), labels));
            }
        }
        GaugeSnapshot resting = GaugeSnapshot.builder().name("fixmatch_book_resting_orders")
            .help("Orders resting in all books").dataPoint(point(answer.liveOrders(), Labels.EMPTY)).build();
        return MetricSnapshots.of(levels.build(), best.build(), bestQuantity.build(), resting);
    }

    private BookQueryAnswer query() {
        try {
            return engine.queryBook(-1);
        } catch (TimeoutException | ExecutionException e) {
            LOG.warn("metrics: the book query was not answered, book depth left out: {}", e.toString());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static GaugeSnapshot.GaugeDataPointSnapshot point(double value, Labels labels) {
        return GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).labels(labels).build();
    }
}
