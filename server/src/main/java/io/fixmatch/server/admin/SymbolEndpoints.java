package io.fixmatch.server.admin;

import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.BookQueryAnswer;
import io.fixmatch.engine.matching.EngineView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * {@code GET /book/{symbol}} (the top levels of both sides, {@code ?depth=N}, 1..20, default 10; the trading phase
 * and a call's indicative uncross) and
 * {@code POST /symbols/{symbol}/halt} and {@code /resume}. Prices are decimal strings at the symbol's precision.
 */
final class SymbolEndpoints {
    private static final Logger LOG = LoggerFactory.getLogger(SymbolEndpoints.class);
    static final int DEFAULT_DEPTH = 10;

    /** One price level. */
    record Level(String price, long quantity, int orders) {
    }

    /**
     * The answer of {@code GET /book/{symbol}}: levels best first; bidLevels/askLevels count all of them; the trading
     * phase (CONTINUOUS, OPENING_CALL, CLOSING_CALL, VOLATILITY_CALL, CLOSED) and, during a call, the indicative
     * uncross price and volume (null and 0 when there is none).
     */
    record Book(String symbol, boolean halted, String phase, String indicativePrice, long indicativeVolume,
                int bidLevels, int askLevels, List<Level> bids, List<Level> asks) {
    }

    /** The answer of a halt or resume: the symbol's state once the engine applied it. */
    record TradingState(String symbol, boolean halted) {
    }

    private final List<SymbolSpec> symbols;
    private final EngineOperations engine;
    private final Readiness readiness;

    SymbolEndpoints(List<SymbolSpec> symbols, EngineOperations engine, Readiness readiness) {
        this.symbols = List.copyOf(symbols);
        this.engine = engine;
        this.readiness = readiness;
    }

    AdminResponse book(AdminRequest request) throws Exception {
        int symbolId = idOf(request.segment(1));
        if (symbolId < 0) {
            return unknown(request.segment(1));
        }
        int depth;
        try {
            depth = Integer.parseInt(request.query().getOrDefault("depth", Integer.toString(DEFAULT_DEPTH)));
        } catch (NumberFormatException e) {
            depth = -1;
        }
        if (depth < 1 || depth > EngineView.MAX_LEVELS) {
            return AdminResponse.error(400, "depth must be 1.." + EngineView.MAX_LEVELS);
        }
        if (!readiness.isReady()) {
            return notReady();
        }
        BookQueryAnswer answer;
        try {
            answer = engine.queryBook(symbolId);
        } catch (TimeoutException e) {
            return AdminResponse.error(504, "the book query was not answered: " + e.getMessage());
        }
        return AdminResponse.json(200, book(symbols.get(symbolId), engine.isHalted(symbolId), answer, depth));
    }

    /** One symbol's book as a book query answered it, {@code depth} levels a side. */
    static Book book(SymbolSpec spec, boolean halted, BookQueryAnswer answer, int depth) {
        String indicativePrice = answer.indicativeVolume() == 0 ? null : decimal(answer.indicativePrice(), spec);
        return new Book(spec.name(), halted, answer.phase().name(), indicativePrice, answer.indicativeVolume(),
            answer.levelCount(Side.BUY), answer.levelCount(Side.SELL),
            levels(answer, Side.BUY, depth, spec), levels(answer, Side.SELL, depth, spec));
    }

    AdminResponse halt(AdminRequest request) throws Exception {
        return setHalted(request, true);
    }

    AdminResponse resume(AdminRequest request) throws Exception {
        return setHalted(request, false);
    }

    private AdminResponse setHalted(AdminRequest request, boolean halted) throws Exception {
        String name = request.segment(1);
        int symbolId = idOf(name);
        if (symbolId < 0) {
            return unknown(name);
        }
        if (!readiness.isReady()) {
            return notReady();
        }
        try {
            engine.setHalted(symbolId, halted);
        } catch (TimeoutException e) {
            LOG.error("operator's {} of {} not applied: {}", halted ? "halt" : "resume", name, e.getMessage());
            return AdminResponse.error(504, (halted ? "halt" : "resume") + " of " + name + " not applied: "
                + e.getMessage() + " (see the log: journal failing, or the engine stalled)");
        }
        LOG.warn("operator {} trading in {} (admin request from {})", halted ? "halted" : "resumed", name,
            request.remoteAddress());
        return AdminResponse.json(200, new TradingState(name, halted));
    }

    private static List<Level> levels(BookQueryAnswer answer, Side side, int depth, SymbolSpec spec) {
        List<Level> levels = new ArrayList<>();
        for (int i = 0; i < Math.min(depth, answer.shownLevels(side)); i++) {
            levels.add(new Level(decimal(answer.price(side, i), spec), answer.quantity(side, i),
                answer.orders(side, i)));
        }
        return levels;
    }

    static String decimal(long units, SymbolSpec spec) {
        return BigDecimal.valueOf(units, spec.priceScale()).toPlainString();
    }

    int idOf(String name) {
        for (int id = 0; id < symbols.size(); id++) {
            if (symbols.get(id).name().equals(name)) {
                return id;
            }
        }
        return -1;
    }

    private static AdminResponse unknown(String name) {
        return AdminResponse.error(404, "unknown symbol " + name);
    }

    static AdminResponse notReady() {
        return AdminResponse.error(503, "not ready: the server is starting or stopping (see GET /health)");
    }
}
