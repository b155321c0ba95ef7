package io.fixmatch.server.rules;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.engine.api.SessionControl;
import io.fixmatch.engine.api.SymbolControl;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.matching.MatchingEngine;
import io.fixmatch.engine.matching.TradingSettings;
import io.fixmatch.server.ConfigException;
import io.fixmatch.server.ServerConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The trading rules' keys: values as the engine takes them, firms and their modes, and refusals naming the key. */
class TradingRulesKeysTest {
    private static ServerConfig read(String text) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(text));
        return ServerConfig.from(properties);
    }

    @Test
    void limitsCollarsFirmsAndTheEndOfDay() throws IOException {
        TradingRules rules = read("""
            sessions=A,B,C
            symbols=AAPL,MSFT
            session.A.risk.maxOrderQuantity=1000
            session.A.risk.maxNotional=250000
            session.A.risk.maxOpenOrders=50
            session.A.risk.priceCollar=2.5%
            session.A.firm=F2
            session.B.risk.priceCollar=20 ticks
            session.B.firm=F1
            session.B.killSwitchOnDisconnect=true
            session.C.firm=F2
            session.C.selfTradePrevention=cancel-both
            firm.F2.selfTradePrevention=cancel-resting
            symbol.MSFT.referencePrice=412.35
            engine.endOfDay=17:30
            engine.timeZone=America/New_York
            """).rules();
        SessionRules a = rules.ofSession(0);
        assertEquals(1000, a.maxOrderQuantity());
        assertEquals(250_000, a.maxNotional());
        assertEquals(50, a.maxOpenOrders());
        assertEquals(250, a.collarBasisPoints());
        assertEquals(0, a.collarTicks());
        assertEquals(1, a.firmId(), "F2 is the first firm named");
        assertEquals(SelfTradePrevention.CANCEL_RESTING, a.selfTradePrevention(), "the firm's mode");
        SessionRules b = rules.ofSession(1);
        assertEquals(20, b.collarTicks());
        assertEquals(2, b.firmId());
        assertEquals(SelfTradePrevention.NONE, b.selfTradePrevention());
        assertTrue(b.killSwitchOnDisconnect());
        SessionRules c = rules.ofSession(2);
        assertEquals(1, c.firmId());
        assertEquals(SelfTradePrevention.CANCEL_BOTH, c.selfTradePrevention(), "the session's own mode wins");
        assertEquals(0L, rules.referencePrices().get(0));
        assertEquals(41_235L, rules.referencePrices().get(1));
        assertEquals(LocalTime.of(17, 30), rules.endOfDay());
        assertEquals(ZoneId.of("America/New_York"), rules.timeZone());
        assertNull(read("sessions=A").rules().endOfDay(), "absent: never");
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        assertRefused("sessions=A\nsession.A.risk.priceCollar=5", "session.A.risk.priceCollar must be a percentage");
        assertRefused("sessions=A\nsession.A.risk.priceCollar=0%", "session.A.risk.priceCollar must be a percentage");
        assertRefused("sessions=A\nsession.A.risk.maxOrderQuantity=-1",
            "session.A.risk.maxOrderQuantity must not be negative");
        assertRefused("sessions=A\nsession.A.selfTradePrevention=cancel", "session.A.selfTradePrevention must be none");
        assertRefused("sessions=A\nfirm.F9.selfTradePrevention=cancel-both", "unknown key firm.F9.selfTradePrevention");
        assertRefused("sessions=A\nsymbols=AAPL\nsymbol.AAPL.referencePrice=1.005",
            "symbol.AAPL.referencePrice must be a price");
        assertRefused("engine.endOfDay=5pm", "engine.endOfDay must be a time HH:mm");
        assertRefused("engine.timeZone=Mars/Olympus", "engine.timeZone is not a time zone");
    }

    @Test
    void auctionGroupsGiveTheirSymbolsTheEnginesScheduleAndVolatilitySettings() throws IOException {
        TradingRules rules = read("""
            symbols=AAPL,MSFT,GOOG
            engine.timeZone=America/New_York
            engine.auctionGroups=EQ,VOL
            auctionGroup.EQ.symbols=AAPL,GOOG
            auctionGroup.EQ.openingCall=08:00
            auctionGroup.EQ.openingUncross=09:30
            auctionGroup.EQ.closingCall=16:00
            auctionGroup.EQ.closingUncross=16:05:30
            auctionGroup.EQ.randomEndSeconds=30
            auctionGroup.EQ.volatilityBand=2.5%
            auctionGroup.EQ.interruptionSeconds=120
            auctionGroup.VOL.symbols=MSFT
            auctionGroup.VOL.volatilityBand=10%
            auctionGroup.VOL.timeZone=Europe/London
            """).rules();
        SymbolSchedule aapl = rules.schedules().get(0);
        assertEquals(8 * 3_600_000L, aapl.control(SymbolControl.OPENING_CALL));
        assertEquals(9 * 3_600_000L + 30 * 60_000L, aapl.control(SymbolControl.OPENING_UNCROSS));
        assertEquals(16 * 3_600_000L, aapl.control(SymbolControl.CLOSING_CALL));
        assertEquals(16 * 3_600_000L + 5 * 60_000L + 30_000L, aapl.control(SymbolControl.CLOSING_UNCROSS));
        assertEquals(30_000, aapl.control(SymbolControl.RANDOM_END_MILLIS));
        assertEquals(250, aapl.control(SymbolControl.VOLATILITY_BAND_BASIS_POINTS));
        assertEquals(120_000, aapl.control(SymbolControl.INTERRUPTION_MILLIS));
        assertEquals("America/New_York", aapl.timeZone(), "engine.timeZone by default");
        assertEquals(aapl, rules.schedules().get(2), "GOOG: the same group");
        SymbolSchedule msft = rules.schedules().get(1);
        assertEquals(-1, msft.control(SymbolControl.OPENING_CALL), "no schedule");
        assertEquals(1_000, msft.control(SymbolControl.VOLATILITY_BAND_BASIS_POINTS));
        assertEquals("Europe/London", msft.timeZone());
        assertEquals(SymbolSchedule.NONE, read("symbols=AAPL").rules().schedules().get(0), "no group: none");
    }

    @Test
    void badAuctionGroupsAreRefusedNamingTheKey() {
        String base = "symbols=AAPL,MSFT\nengine.auctionGroups=G\nauctionGroup.G.symbols=AAPL\n";
        assertRefused("symbols=AAPL\nengine.auctionGroups=G\nauctionGroup.G.symbols=NOPE",
            "auctionGroup.G.symbols names NOPE, which is no configured symbol");
        assertRefused("symbols=AAPL\nengine.auctionGroups=G,H\nauctionGroup.G.symbols=AAPL\n"
            + "auctionGroup.H.symbols=AAPL", "auctionGroup.H.symbols names AAPL, already in auction group G");
        assertRefused("symbols=AAPL\nengine.auctionGroups=G", "auctionGroup.G.symbols");
        assertRefused(base + "auctionGroup.G.openingCall=08:00", "auctionGroup.G.openingCall the four times");
        assertRefused(base + "auctionGroup.G.openingCall=8am", "auctionGroup.G.openingCall must be a time");
        assertRefused(base + "auctionGroup.G.openingCall=10:00\nauctionGroup.G.openingUncross=09:00\n"
            + "auctionGroup.G.closingCall=16:00\nauctionGroup.G.closingUncross=16:30",
            "auctionGroup.G.openingCall auction group G's times must be in the order");
        assertRefused(base + "auctionGroup.G.volatilityBand=5", "auctionGroup.G.volatilityBand must be a percentage");
        assertRefused(base + "auctionGroup.G.interruptionSeconds=-1",
            "auctionGroup.G.interruptionSeconds must be whole seconds");
        assertRefused(base + "auctionGroup.G.timeZone=Mars/Olympus", "auctionGroup.G.timeZone is not a time zone");
        assertRefused(base + "auctionGroup.X.volatilityBand=5%", "unknown key auctionGroup.X.volatilityBand");
    }

    /** The commands that bring an engine to the configured schedule: the zone first, then the rest; none twice. */
    @Test
    void theSyncSetsTheScheduleWhereTheEngineDiffers() throws IOException {
        TradingRules rules = read("""
            sessions=A
            symbols=AAPL,MSFT
            engine.auctionGroups=VOL
            auctionGroup.VOL.symbols=MSFT
            auctionGroup.VOL.volatilityBand=5%
            auctionGroup.VOL.interruptionSeconds=3
            auctionGroup.VOL.timeZone=Europe/London
            """).rules();
        MatchingEngine engine = new MatchingEngine(new EngineConfig(List.of(SymbolSpec.of("AAPL", 2, 1, 1),
            SymbolSpec.of("MSFT", 2, 1, 1)), 100, 100), event -> { });
        List<Command> commands = SessionControlSync.differences(rules, engine, 1, owner -> true);
        assertEquals(List.of("SET_SYMBOL_CONTROL 1 Europe/London", "SET_SYMBOL_CONTROL 1 6=500",
            "SET_SYMBOL_CONTROL 1 7=3000"), commands.stream().map(TradingRulesKeysTest::describe).toList());
        commands.forEach(engine::process);
        assertEquals(List.of(), SessionControlSync.differences(rules, engine, 2, owner -> true), "in force");
        TradingSettings unknown = new TradingSettings() { // an earlier release node's welcome: no schedule
            @Override
            public long sessionControl(int owner, SessionControl control) {
                return 0;
            }

            @Override
            public long referencePrice(int symbolId) {
                return 0;
            }
        };
        assertEquals(3, SessionControlSync.differences(rules, unknown, 1, owner -> true).size(),
            "every configured setting, none of the unset ones");
    }

    private static String describe(Command command) {
        return command.type() + " " + command.symbolId() + " " + (command.price() == SymbolControl.TIME_ZONE.code()
            ? command.clientOrderId() : command.price() + "=" + command.quantity());
    }

    private static void assertRefused(String text, String start) {
        ConfigException refused = assertThrows(ConfigException.class, () -> read(text));
        assertTrue(refused.getMessage().startsWith(start), refused.getMessage());
    }
}
