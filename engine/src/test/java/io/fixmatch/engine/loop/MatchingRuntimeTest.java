package io.fixmatch.engine.loop;

import io.fixmatch.engine.api.Command;
import io.fixmatch.engine.api.EventType;
import io.fixmatch.engine.api.ExecutionEvent;
import io.fixmatch.engine.api.OrderType;
import io.fixmatch.engine.api.Side;
import io.fixmatch.engine.api.TimeInForce;
import io.fixmatch.engine.codec.MarketDataCodec;
import io.fixmatch.engine.config.EngineConfig;
import io.fixmatch.engine.config.SymbolSpec;
import net.openhft.affinity.Affinity;
import net.openhft.affinity.LockCheck;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The matching loop without a journal: back-pressure, drain on stop, many producers, CPU pinning, one command's market
 * data split to fit the outbound rings.
 */
class MatchingRuntimeTest {
    private static final EngineConfig ENGINE = new EngineConfig(List.of(SymbolSpec.of("X", 2, 1, 1)), 100_000,
        10_000);

    @Test
    void aFullInboundRingRefusesTheOfferAndDropsNothing() {
        InboundCommandRing ring = new InboundCommandRing(1024);
        Command command = order(1, "a");
        int accepted = 0;
        while (ring.offer(command)) {
            accepted++;
        }
        assertTrue(accepted > 5 && accepted < 1024 / 40, "accepted " + accepted);
        assertFalse(ring.offer(command), "still full");
        int[] read = {0};
        while (ring.read((type, buffer, index, length) -> read[0]++, 100) > 0) {
            // drain
        }
        assertEquals(accepted, read[0], "every accepted command is delivered, no more");
        assertTrue(ring.offer(command), "room again after the consumer caught up");
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void stopProcessesEveryCommandAlreadyAccepted() {
        for (String idle : List.of("backoff", "busy-spin", "yield", "sleep")) {
            MatchingRuntime runtime = new MatchingRuntime(ENGINE, LoopConfig.defaults().withIdleStrategy(idle),
                EnginePersistence.NONE);
            runtime.recover();
            runtime.start();
            for (int i = 0; i < 5_000; i++) {
                assertTrue(runtime.inbound().offer(order(1, "o" + i)));
            }
            runtime.close();
            List<EventType> events = new ArrayList<>();
            while (runtime.outbound().poll(event -> events.add(event.type()), 10_000) > 0) {
                // collect
            }
            assertEquals(5_000, events.size(), idle);
            assertTrue(events.stream().allMatch(type -> type == EventType.ACCEPTED), idle);
            assertEquals(5_000, runtime.commandsProcessed(), idle);
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void manyProducersAtOnceLoseNothing() throws Exception {
        MatchingRuntime runtime = new MatchingRuntime(ENGINE, LoopConfig.defaults(), EnginePersistence.NONE);
        runtime.recover();
        runtime.start();
        int producers = 4;
        int perProducer = 5_000;
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int owner = p + 1;
            running.add(CompletableFuture.runAsync(() -> {
                Command command = new Command();
                for (int i = 0; i < perProducer; i++) {
                    order(command, owner, "o" + i);
                    while (!runtime.inbound().offer(command)) {
                        Thread.onSpinWait();
                    }
                }
            }));
        }
        int[] events = {0};
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (events[0] < producers * perProducer && System.nanoTime() < deadline) {
            runtime.outbound().poll(event -> events[0]++, 1_000);
        }
        CompletableFuture.allOf(running.toArray(new CompletableFuture[0])).get(10, TimeUnit.SECONDS);
        runtime.close();
        assertEquals(producers * perProducer, events[0]);
    }

    /**
     * The end of the day expiring 2,000 orders at 2,000 prices: 2,000 level changes in one command, more than a 256 KiB
     * outbound ring (a cluster node's staging ring) takes as one record (32 KiB: 1,489 entries). They arrive as
     * records the ring takes, each but the last marked continued. (Published as one 44 KB record, the ring refused it
     * and the matching thread failed every command after it: a cluster node's service stopped answering.)
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void oneCommandsMarketDataBeyondTheRingsLargestRecordArrivesInPieces() {
        int orders = 2_000;
        int ringBytes = 1 << 18;
        MatchingRuntime runtime = new MatchingRuntime(ENGINE, new LoopConfig(-1, "backoff", 1 << 22, ringBytes, 256),
            EnginePersistence.NONE);
        runtime.publishMarketData(true);
        runtime.recover();
        runtime.start();
        try {
            Command command = new Command();
            for (int i = 0; i < orders; i++) {
                command.newOrder(1, "o" + i, 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 1_000 + i, 1);
                while (!runtime.inbound().offer(command)) {
                    Thread.onSpinWait();
                }
            }
            assertTrue(runtime.inbound().offer(command.expireDayOrders()));
            int[] expired = {0};
            List<Integer> pieces = new ArrayList<>(); // entries of each market data record after the first expiry
            List<Boolean> continued = new ArrayList<>();
            TracedEventSink sink = new TracedEventSink() {
                @Override
                public void onEvent(ExecutionEvent event, CommandTrace trace) {
                    expired[0] += event.type() == EventType.EXPIRED ? 1 : 0;
                }

                @Override
                public void onMarketData(DirectBuffer buffer, int offset, int length) {
                    if (expired[0] > 0) {
                        assertTrue(length <= ringBytes / 8, "a record of " + length + " bytes");
                        pieces.add(MarketDataCodec.entries(length));
                        continued.add(MarketDataCodec.continued(buffer, offset));
                    }
                }
            };
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (pieces.stream().mapToInt(Integer::intValue).sum() < orders && System.nanoTime() < deadline) {
                runtime.outbound().poll(sink, 1_000);
            }
            assertEquals(orders, expired[0], "every order expired");
            assertEquals(orders, pieces.stream().mapToInt(Integer::intValue).sum(),
                "the expiry's level changes, in records of " + pieces);
            assertTrue(pieces.size() > 1, "in several records: " + pieces);
            for (int i = 0; i < continued.size(); i++) {
                assertEquals(i < continued.size() - 1, continued.get(i), "record " + i + " of " + pieces);
            }
        } finally {
            runtime.close();
        }
    }

    @Test
    void thePinnedThreadRunsOnItsCpuOnly() throws Exception {
        int cpu = Runtime.getRuntime().availableProcessors() - 1;
        // Chronicle Affinity reserves a CPU machine-wide (a lock file per CPU): while another process holds it (a
        // pinned server or benchmark beside the build) pinning is refused by design, and the thread runs unpinned.
        assumeTrue(LockCheck.isCpuFree(cpu), () -> "CPU " + cpu + " is reserved by another process: "
            + processHolding(cpu));
        BitSet[] seen = new BitSet[1];
        Thread thread = new CpuPinning("pinned-test", cpu).newThread(() -> seen[0] = Affinity.getAffinity());
        thread.start();
        thread.join(10_000);
        BitSet expected = new BitSet();
        expected.set(cpu);
        assertEquals(expected, seen[0], "the thread's affinity while it ran");
    }

    private static String processHolding(int cpu) {
        try {
            return "pid " + LockCheck.getProcessForCpu(cpu);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static Command order(int owner, String id) {
        return order(new Command(), owner, id);
    }

    private static Command order(Command command, int owner, String id) {
        return command.newOrder(owner, id, 0, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 1_000, 1);
    }
}
