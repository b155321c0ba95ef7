package io.fixmatch.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The configuration is strict: whatever the file, the environment or a flag says that the code does not read, or
 * cannot use, is refused with one line naming the key and where the value came from. Precedence: flag, environment
 * variable, file, default.
 */
class StrictConfigTest {
    @TempDir
    Path dir;

    @Test
    void aMistypedKeyIsRefusedNamingItTheFileAndTheKeyMeant() throws IOException {
        Path file = file("fix.prot=9999");
        ConfigException refused = assertThrows(ConfigException.class, () -> ServerConfig.load(file));
        assertEquals("unknown key fix.prot in " + file + " (did you mean fix.port?)", refused.getMessage());
    }

    @Test
    void aSettingOfASessionThatIsNotListedIsRefused() throws IOException {
        Path file = file("sessions=CLIENT1\nsession.CLIENT9.password=x");
        ConfigException refused = assertThrows(ConfigException.class, () -> ServerConfig.load(file));
        assertTrue(refused.getMessage().startsWith("unknown key session.CLIENT9.password in " + file),
            refused.getMessage());
    }

    @Test
    void aBadValueIsRefusedNamingTheKeyAndTheFile() throws IOException {
        Path file = file("engine.maxOrders=lots");
        ConfigException refused = assertThrows(ConfigException.class, () -> ServerConfig.load(file));
        assertEquals("engine.maxOrders must be a whole number, was lots (in " + file + ")", refused.getMessage());

        Path idle = file("engine.idleStrategy=spin");
        assertTrue(assertThrows(ConfigException.class, () -> ServerConfig.load(idle)).getMessage()
            .startsWith("engine.idleStrategy unknown idle strategy 'spin'"));
        Path transport = file("gateway.transport=dpdk");
        assertTrue(assertThrows(ConfigException.class, () -> ServerConfig.load(transport)).getMessage()
            .startsWith("gateway.transport unknown transport 'dpdk' (auto, io_uring, epoll, nio)"));
        Path size = file("log.maxFileSize=100");
        assertTrue(assertThrows(ConfigException.class, () -> ServerConfig.load(size)).getMessage()
            .startsWith("log.maxFileSize must be a size such as 100MB"));
    }

    @Test
    void aSessionOrSymbolListedTwiceIsRefused() throws IOException {
        Path sessions = file("sessions=CLIENT1,CLIENT2,CLIENT1");
        assertEquals("sessions lists CLIENT1 twice (in " + sessions + ")",
            assertThrows(ConfigException.class, () -> ServerConfig.load(sessions)).getMessage());
        Path symbols = file("symbols=AAPL,MSFT,AAPL");
        assertEquals("symbols lists AAPL twice (in " + symbols + ")",
            assertThrows(ConfigException.class, () -> ServerConfig.load(symbols)).getMessage());
        Path own = file("sessions=CLIENT1,FIXMATCH");
        assertTrue(assertThrows(ConfigException.class, () -> ServerConfig.load(own)).getMessage()
            .contains("the server's own CompID"));
    }

    @Test
    void aFlagBeatsTheEnvironmentWhichBeatsTheFileWhichBeatsTheDefault() throws IOException {
        Path file = file("fix.port=7001\nengine.maxOrders=5000\nserver.layout=two-threads\nfix.ioThreads=2");
        Map<String, String> environment = Map.of("FIXMATCH_FIX_PORT", "7002", "FIXMATCH_ENGINE_MAX_ORDERS", "6000",
            "FIXMATCH_SESSION_CLIENT1_PASSWORD", "secret", "FIXMATCH_JAVA_OPTS", "-Xmx1g", "PATH", "/bin");
        ConfigKeys keys = ConfigKeys.load(file, environment, List.of(new ConfigKeys.Flag("--port", "fix.port", "7003"),
            new ConfigKeys.Flag("--data", "data.dir", "/srv/fixmatch")));
        ServerConfig config = ServerConfig.read(keys);

        assertEquals(7003, config.gateway().port());
        assertEquals(6000, config.engine().maxOrders());
        assertEquals(2, config.gateway().threads(), "fix.ioThreads, the former name of gateway.threads");
        assertEquals(120_000, config.gateway().timings().sendingTimeToleranceMs());
        assertEquals("secret", config.sessions().get(0).password());
        assertNull(config.sessions().get(1).password());
        assertEquals(Path.of("/srv/fixmatch"), config.dataDirectory());
        assertEquals(Path.of("/srv/fixmatch/logs"), config.logDirectory());
        assertEquals(List.of("server.layout=two-threads (" + file + ")", "fix.ioThreads=2 (" + file + ")",
                "fix.port=7003 (--port)",
                "session.CLIENT1.password=*** (FIXMATCH_SESSION_CLIENT1_PASSWORD)",
                "engine.maxOrders=6000 (FIXMATCH_ENGINE_MAX_ORDERS)", "data.dir=/srv/fixmatch (--data)"),
            keys.overrides());
    }

    @Test
    void theAdminTokenIsReadButNeverShown() {
        ConfigKeys keys = ConfigKeys.embedded(Map.of("FIXMATCH_ADMIN_TOKEN", "s3cret"), List.of());
        ServerConfig config = ServerConfig.read(keys);
        assertEquals("s3cret", config.admin().token());
        assertTrue(keys.overrides().contains("admin.token=*** (FIXMATCH_ADMIN_TOKEN)"), keys.overrides().toString());
        assertFalse(keys.overrides().toString().contains("s3cret"), keys.overrides().toString());
        assertFalse(config.admin().toString().contains("s3cret"), config.admin().toString());
        assertNull(ServerConfig.embedded().admin().token(), "no token by default");
    }

    @Test
    void aBadValueFromTheEnvironmentOrAFlagNamesItsSource() {
        ConfigKeys environment = ConfigKeys.embedded(Map.of("FIXMATCH_FIX_PORT", "99999"), List.of());
        assertEquals("fix.port must be 0..65535, was 99999 (from environment variable FIXMATCH_FIX_PORT)",
            assertThrows(ConfigException.class, () -> ServerConfig.read(environment)).getMessage());
        ConfigKeys flag = ConfigKeys.embedded(Map.of(), List.of(new ConfigKeys.Flag("--admin-port", "admin.port",
            "-1")));
        assertEquals("admin.port must be 0..65535, was -1 (from --admin-port)",
            assertThrows(ConfigException.class, () -> ServerConfig.read(flag)).getMessage());
    }

    @Test
    void anUnknownFixmatchVariableIsRefusedButTheScriptsOwnArePassedOver() {
        ConfigKeys typo = ConfigKeys.embedded(Map.of("FIXMATCH_FIX_PROT", "9999"), List.of());
        assertEquals("unknown environment variable FIXMATCH_FIX_PROT (did you mean FIXMATCH_FIX_PORT?)",
            assertThrows(ConfigException.class, () -> ServerConfig.read(typo)).getMessage());
        ServerConfig.read(ConfigKeys.embedded(Map.of("FIXMATCH_JAVA_OPTS", "-Xmx1g", "FIXMATCH_SKIP_BUILD", "1",
            "OTHER_FIX_PORT", "1"), List.of()));
    }

    @Test
    void theEnvironmentNameOfAKeyIsItsUpperSnakeCase() {
        assertEquals("FIXMATCH_FIX_PORT", ConfigKeys.environmentName("fix.port"));
        assertEquals("FIXMATCH_FIX_MAX_MESSAGE_SIZE", ConfigKeys.environmentName("fix.maxMessageSize"));
        assertEquals("FIXMATCH_SYMBOL_DEFAULT_TICK", ConfigKeys.environmentName("symbol.default.tick"));
        ConfigKeys keys = ConfigKeys.embedded(Map.of(), List.of());
        ServerConfig.read(keys);
        assertTrue(keys.reads().stream().anyMatch(read -> read.key().equals("symbol.AAPL.maxPrice")
            && read.environmentName().equals("FIXMATCH_SYMBOL_AAPL_MAX_PRICE")
            && read.name().equals("symbol.<NAME>.maxPrice")));
    }

    @Test
    void aKeySetTwiceInTheFileIsAWarningAndTheLastValueApplies() throws IOException {
        Path file = file("fix.port=7001\nfix.port=7002\nsession.CLIENT1.password=a\nsession.CLIENT1.password=b");
        ConfigKeys keys = ConfigKeys.load(file, Map.of(), List.of());
        assertEquals(7002, ServerConfig.read(keys).gateway().port());
        assertEquals(List.of("fix.port is set twice in " + file + "; the last value (7002) applies",
            "session.CLIENT1.password is set twice in " + file + "; the last value (***) applies"), keys.warnings());
    }

    @Test
    void theRepositoryConfigurationHoldsOnlyKeysTheCodeReadsWithTheirDefaults() {
        ConfigKeys keys = ConfigKeys.load(Path.of("..", "config", "fixmatch.properties"), Map.of(), List.of());
        ServerConfig.read(keys);
        assertEquals(List.of("session.LOADGEN.cancelOnDisconnect=true (" + Path.of("..", "config",
            "fixmatch.properties") + ")"), keys.overrides(), "the file documents the defaults");
    }

    @Test
    void aMissingFileIsOneLine() {
        Path missing = dir.resolve("nowhere.properties");
        assertEquals("cannot read config file " + missing + ": no such file",
            assertThrows(ConfigException.class, () -> ServerConfig.load(missing)).getMessage());
    }

    private Path file(String text) throws IOException {
        Path file = Files.createTempFile(dir, "fixmatch", ".properties");
        Files.writeString(file, text + "\n");
        return file;
    }
}
