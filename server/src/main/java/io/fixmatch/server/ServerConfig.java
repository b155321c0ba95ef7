package io.fixmatch.server;

import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.loop.LoopConfig;
import io.fixmatch.fix.gateway.GatewayIdle;
import io.fixmatch.fix.session.SessionConfig;
import io.fixmatch.fix.session.SessionTimings;
import io.fixmatch.fix.transport.GatewaySettings;
import io.fixmatch.journal.JournalConfig;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The server's configuration, read from a properties file ({@code config/fixmatch.properties} is the embedded
 * default and documents every key). Anything invalid is refused at start with a message naming the key.
 */
public record ServerConfig(ThreadLayout layout, GatewaySettings gateway, String compId, List<SessionConfig> sessions,
                           EngineConfig engine, LoopConfig loop, Path dataDirectory, String journalRollCycle,
                           int journalRetainCycles) {

    public static final String EMBEDDED = "fixmatch.properties";

    /** The embedded defaults. */
    public static ServerConfig embedded() {
        try (InputStream in = ServerConfig.class.getClassLoader().getResourceAsStream(EMBEDDED)) {
            if (in == null) {
                throw new IllegalStateException("embedded " + EMBEDDED + " missing from the classpath");
            }
            Properties properties = new Properties();
            properties.load(in);
            return from(properties);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read embedded " + EMBEDDED, e);
        }
    }

    public static ServerConfig load(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        }
        return from(properties);
    }

    public static ServerConfig from(Properties properties) {
        Keys keys = new Keys(properties);
        String compId = keys.text("fix.compId", "FIXMATCH");
        SessionTimings timings = new SessionTimings(keys.positiveLong("fix.logonTimeoutMs", 10_000),
            keys.positiveLong("fix.logoutTimeoutMs", 5_000), keys.positiveLong("fix.sendingTimeToleranceMs", 120_000));
        ThreadLayout layout = ThreadLayout.byName(keys.text("server.layout", ThreadLayout.ONE_THREAD.configName()));
        // gateway.threads was fix.ioThreads (Netty I/O threads) before each gateway thread owned its sessions.
        int gatewayThreads = keys.integer("gateway.threads", keys.integer("fix.ioThreads", 1, 1, 64), 1, 64);
        if (layout == ThreadLayout.ONE_THREAD && gatewayThreads != 1) {
            throw new IllegalArgumentException("server.layout=one-thread runs the matching step on the gateway thread:"
                + " it needs gateway.threads=1, was " + gatewayThreads);
        }
        GatewaySettings gateway = new GatewaySettings(keys.text("fix.host", "127.0.0.1"),
            keys.integer("fix.port", 9878, 0, 65_535), gatewayThreads,
            GatewayIdle.byName(keys.text("gateway.idleStrategy", GatewayIdle.BACKOFF.configName())),
            keys.cpus("gateway.cpus"), keys.integer("fix.maxMessageSize", 8192, 256, 1 << 20),
            keys.positiveLong("fix.maxPendingBytes", 64L << 20), timings);

        List<SessionConfig> sessions = new ArrayList<>();
        for (String id : keys.list("sessions", "CLIENT1,CLIENT2,LOADGEN")) {
            if (id.equals(compId)) {
                throw new IllegalArgumentException("sessions: " + id + " is the server's own CompID");
            }
            sessions.add(new SessionConfig(id, keys.optional("session." + id + ".username"),
                keys.optional("session." + id + ".password"),
                keys.bool("session." + id + ".cancelOnDisconnect", false),
                keys.bool("session." + id + ".latencyTrace", false)));
        }
        if (sessions.stream().map(SessionConfig::clientCompId).distinct().count() != sessions.size()) {
            throw new IllegalArgumentException("sessions: a CompID is listed twice");
        }

        List<SymbolSpec> symbols = new ArrayList<>();
        for (String name : keys.list("symbols", "AAPL,MSFT,GOOG")) {
            symbols.add(symbol(keys, name));
        }
        EngineConfig engine = new EngineConfig(symbols, keys.integer("engine.maxOrders", 1_000_000, 1,
            EngineConfig.MAX_CAPACITY), keys.integer("engine.maxPriceLevels", 200_000, 1, EngineConfig.MAX_CAPACITY));
        LoopConfig loop = new LoopConfig(keys.integer("engine.cpu", -1, -1, 4096),
            keys.text("engine.idleStrategy", "backoff"), keys.integer("engine.inboundRingBytes", 1 << 22, 1024, 1 << 30),
            keys.integer("engine.outboundRingBytes", 1 << 24, 1024, 1 << 30), 256);
        String rollCycle = keys.text("journal.rollCycle", JournalConfig.DEFAULT_ROLL_CYCLE);
        int retainCycles = keys.integer("journal.retainCycles", JournalConfig.KEEP_ALL, JournalConfig.KEEP_ALL,
            Integer.MAX_VALUE);
        new JournalConfig(Path.of("."), rollCycle, retainCycles);
        return new ServerConfig(layout, gateway, compId, sessions, engine, loop,
            Path.of(keys.text("data.dir", "data")), rollCycle, retainCycles);
    }

    /** A copy listening on another port (tests use port 0: any free port). */
    public ServerConfig withPort(int port) {
        return new ServerConfig(layout, gateway.withPort(port), compId, sessions, engine, loop, dataDirectory,
            journalRollCycle, journalRetainCycles);
    }

    /** A copy storing its journal and sessions elsewhere. */
    public ServerConfig withDataDirectory(Path directory) {
        return new ServerConfig(layout, gateway, compId, sessions, engine, loop, directory, journalRollCycle,
            journalRetainCycles);
    }

    public JournalConfig journal() {
        return new JournalConfig(dataDirectory.resolve("journal"), journalRollCycle, journalRetainCycles);
    }

    public Path sessionDirectory(SessionConfig session) {
        return dataDirectory.resolve("sessions").resolve(compId + "-" + session.clientCompId());
    }

    private static SymbolSpec symbol(Keys keys, String name) {
        BigDecimal tick = keys.decimal("symbol." + name + ".tick", keys.decimal("symbol.default.tick",
            new BigDecimal("0.01")));
        int scale = keys.integer("symbol." + name + ".priceScale", Math.max(0, tick.stripTrailingZeros().scale()), 0,
            9);
        BigDecimal unitsPerWhole = BigDecimal.TEN.pow(scale);
        long tickUnits = exactUnits("symbol." + name + ".tick", tick, unitsPerWhole);
        long lot = keys.positiveLong("symbol." + name + ".lot", keys.positiveLong("symbol.default.lot", 1));
        BigDecimal maxPrice = keys.decimal("symbol." + name + ".maxPrice", keys.decimal("symbol.default.maxPrice",
            new BigDecimal("1000000")));
        long maxQuantity = keys.positiveLong("symbol." + name + ".maxQuantity",
            keys.positiveLong("symbol.default.maxQuantity", 1_000_000));
        return new SymbolSpec(name, scale, tickUnits, lot, exactUnits("symbol." + name + ".maxPrice", maxPrice,
            unitsPerWhole), maxQuantity);
    }

    private static long exactUnits(String key, BigDecimal value, BigDecimal unitsPerWhole) {
        try {
            long units = value.multiply(unitsPerWhole).longValueExact();
            if (units <= 0) {
                throw new IllegalArgumentException(key + " must be positive, was " + value);
            }
            return units;
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(key + " = " + value + " is finer than the price precision", e);
        }
    }

    /** Typed reads of the properties, with the key in every error. */
    private record Keys(Properties properties) {
        String optional(String key) {
            String value = properties.getProperty(key);
            return value == null || value.isBlank() ? null : value.trim();
        }

        String text(String key, String fallback) {
            String value = optional(key);
            return value == null ? fallback : value;
        }

        List<String> list(String key, String fallback) {
            List<String> items = new ArrayList<>();
            for (String item : text(key, fallback).split(",")) {
                if (!item.isBlank()) {
                    items.add(item.trim());
                }
            }
            if (items.isEmpty()) {
                throw new IllegalArgumentException(key + " is empty");
            }
            return items;
        }

        int integer(String key, int fallback, int min, int max) {
            long value = number(key, fallback);
            if (value < min || value > max) {
                throw new IllegalArgumentException(key + " must be " + min + ".." + max + ", was " + value);
            }
            return (int) value;
        }

        /** A comma-separated list of CPU numbers (-1: unpinned); empty if the key is absent. */
        List<Integer> cpus(String key) {
            String value = optional(key);
            List<Integer> cpus = new ArrayList<>();
            if (value != null) {
                for (String item : value.split(",")) {
                    try {
                        int cpu = Integer.parseInt(item.trim());
                        if (cpu < -1 || cpu > 4096) {
                            throw new IllegalArgumentException(key + ": CPU " + cpu + " out of range -1..4096");
                        }
                        cpus.add(cpu);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(key + " must list CPU numbers, was " + value, e);
                    }
                }
            }
            return cpus;
        }

        long positiveLong(String key, long fallback) {
            long value = number(key, fallback);
            if (value <= 0) {
                throw new IllegalArgumentException(key + " must be positive, was " + value);
            }
            return value;
        }

        boolean bool(String key, boolean fallback) {
            String value = optional(key);
            if (value == null) {
                return fallback;
            }
            if (!value.equals("true") && !value.equals("false")) {
                throw new IllegalArgumentException(key + " must be true or false, was " + value);
            }
            return Boolean.parseBoolean(value);
        }

        BigDecimal decimal(String key, BigDecimal fallback) {
            String value = optional(key);
            try {
                return value == null ? fallback : new BigDecimal(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be a decimal number, was " + value, e);
            }
        }

        private long number(String key, long fallback) {
            String value = optional(key);
            try {
                return value == null ? fallback : Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be a whole number, was " + value, e);
            }
        }
    }
}
