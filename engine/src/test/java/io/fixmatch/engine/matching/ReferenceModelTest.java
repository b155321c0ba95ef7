package io.fixmatch.engine.matching;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import io.fixmatch.engine.testing.RecordingSink;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The engine against {@link ReferenceModel}, a naive reading of MATCHING.md, on long random flows
 * ({@link DeterminismTest#commands}): every event of every command, then the final books. A failure names the
 * first command where they part, with the commands before it.
 */
class ReferenceModelTest {
    private static final List<SymbolSpec> SYMBOLS = List.of(EngineHarness.ACME, EngineHarness.BETA);

    @ParameterizedTest(name = "seed {0}, {1} orders, {2} levels")
    @CsvSource({
        "1, 1000, 1000",
        "2, 1000, 1000",
        "3, 24, 6",
        "4, 8, 3",
        "5, 200, 40",
    })
    void engineAndModelAgreeOnEveryEvent(long seed, int maxOrders, int maxLevels) {
        compare(seed, maxOrders, maxLevels);
    }

    /** Many ids and a wide spread: thousands of live orders over hundreds of levels, churned by cancels. */
    @ParameterizedTest(name = "seed {0}, {1} orders, {2} levels")
    @CsvSource({
        "11, 5000, 5000",
        "12, 700, 120",
    })
    void engineAndModelAgreeOnDeepBooks(long seed, int maxOrders, int maxLevels) {
        compare(DeterminismTest.commands(seed, 20_000, 2_000, 400, 4), seed, maxOrders, maxLevels);
    }

    private static void compare(long seed, int maxOrders, int maxLevels) {
        compare(DeterminismTest.commands(seed, 10_000), seed, maxOrders, maxLevels);
    }

    private static void compare(List<Command> commands, long seed, int maxOrders, int maxLevels) {
        RecordingSink sink = new RecordingSink();
        MatchingEngine engine = new MatchingEngine(new EngineConfig(SYMBOLS, maxOrders, maxLevels), sink);
        ReferenceModel model = new ReferenceModel(SYMBOLS, maxOrders, maxLevels);

        for (int i = 0; i < commands.size(); i++) {
            Command c = commands.get(i);
            List<String> expected = model.process(c);
            engine.process(c);
            List<String> actual = sink.drain();
            if (!expected.equals(actual)) {
                StringBuilder context = new StringBuilder();
                for (int k = Math.max(0, i - 8); k < i; k++) {
                    context.append("\n  #").append(k).append(' ').append(commands.get(k));
                }
                fail("first difference at command #" + i + " (seed " + seed + "): " + c
                    + "\npreceding commands:" + context
                    + "\nexpected (MATCHING.md):\n  " + String.join("\n  ", expected)
                    + "\nactual (engine):\n  " + String.join("\n  ", actual));
            }
        }
        assertEquals(model.snapshot(), DeterminismTest.run(commands, maxOrders, maxLevels).book());
    }
}
