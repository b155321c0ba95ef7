package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.matching.EngineHarness.Ord;
import io.fixmatch.engine.matching.EngineHarness.Req;
import org.junit.jupiter.api.Test;

import static io.fixmatch.engine.api.OrderStatus.NEW;
import static io.fixmatch.engine.api.RejectReason.INVALID_POST_ONLY;
import static io.fixmatch.engine.api.RejectReason.POST_ONLY_WOULD_TAKE;
import static io.fixmatch.engine.api.Side.BUY;
import static io.fixmatch.engine.api.Side.SELL;
import static io.fixmatch.engine.matching.EngineHarness.A;
import static io.fixmatch.engine.matching.EngineHarness.B;
import static io.fixmatch.engine.matching.EngineHarness.SYM;

/** MATCHING.md "Post-only": refused (never repriced) when it would trade on entry. */
class PostOnlyTest {
    private final EngineHarness h = EngineHarness.create();

    private Ord postOnly(int owner, String id, Side side, TimeInForce tif, long price) {
        return h.order(new Command().newOrder(owner, id, SYM, side, OrderType.LIMIT, tif, price, 10).postOnly(true));
    }

    @Test
    void aPostOnlyOrderThatWouldTradeIsRefusedAndOneThatWouldNotRests() {
        Ord ask = h.sell(A, "ask", 1000, 10).id(1);
        Ord crossing = postOnly(B, "cross", BUY, TimeInForce.DAY, 1000);
        h.expect(crossing.rejected(2, POST_ONLY_WOULD_TAKE));
        h.expectBook(SYM, SELL, "A:ask 10@1000");
        Ord passive = postOnly(B, "passive", BUY, TimeInForce.GTC, 995);
        h.expect(passive.accepted(2, 3));
        h.expectBook(SYM, BUY, "B:passive 10@995");

        Req replace = h.replace(passive, "passive2", 1000, 10);
        h.expect(replace.rejectedLive(POST_ONLY_WOULD_TAKE, passive, 10, 0, 0, NEW));
        Req fine = h.replace(passive, "passive3", 990, 10);
        h.expect(fine.replaced(4).state(10, 0, 0, NEW));
        h.expectBook(SYM, SELL, "A:ask 10@1000");
    }

    @Test
    void postOnlyIsOnlyForLimitOrdersThatCanRest() {
        Ord ioc = postOnly(A, "ioc", BUY, TimeInForce.IOC, 1000);
        h.expect(ioc.rejected(1, INVALID_POST_ONLY));
        Ord market = h.order(new Command().newOrder(A, "mkt", SYM, BUY, OrderType.MARKET, TimeInForce.DAY, 0, 10)
            .postOnly(true));
        h.expect(market.rejected(2, INVALID_POST_ONLY));
    }
}
