package io.fixmatch.server.rules;

import io.fixmatch.engine.api.SelfTradePrevention;
import io.fixmatch.server.ConfigException;
import io.fixmatch.server.ServerConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.time.LocalTime;
import java.time.ZoneId;
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

    private static void assertRefused(String text, String start) {
        ConfigException refused = assertThrows(ConfigException.class, () -> read(text));
        assertTrue(refused.getMessage().startsWith(start), refused.getMessage());
    }
}
