package io.fixmatch.cluster;

import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.client.EgressListener;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.Header;
import io.fixmatch.cluster.protocol.Egress;
import org.agrona.DirectBuffer;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * An Aeron Cluster client that sends whatever bytes it is given: what a buggy or hostile gateway could send, a gateway
 * of another release, or a gateway the test makes fall silent at will. It keeps the types of the egress messages it got, the refusals' texts,
 * and each BATCH's records (type and bytes), for the test to look at.
 */
final class RawClusterClient implements AutoCloseable, EgressListener {
    /** One record of a BATCH the cluster sent. */
    record BatchRecord(int type, byte[] bytes) {
    }

    private final MediaDriver driver;
    private final AeronCluster client;
    private final List<Byte> egressTypes = new CopyOnWriteArrayList<>();
    private final List<String> refusals = new CopyOnWriteArrayList<>();
    private final List<BatchRecord> records = new CopyOnWriteArrayList<>();

    RawClusterClient(TestCluster cluster) {
        String directory = Path.of("/dev/shm", "fixmatch-test-raw-" + UUID.randomUUID()).toString();
        driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(directory)
            .threadingMode(ThreadingMode.SHARED).termBufferSparseFile(true).dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        client = AeronCluster.connect(new AeronCluster.Context().aeronDirectoryName(directory)
            .ingressChannel("aeron:udp?term-length=4m")
            .ingressEndpoints(cluster.members().ingressEndpoints())
            .egressChannel("aeron:udp?endpoint=127.0.0.1:0|term-length=4m")
            .messageTimeoutNs(TimeUnit.SECONDS.toNanos(60)) // Aeron's 5 s fail a connect on a loaded machine
            .egressListener(this));
    }

    void send(DirectBuffer message, int length) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (client.offer(message, 0, length) < 0) {
            client.pollEgress();
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the cluster's ingress took no message of " + length + " bytes");
            }
            Thread.sleep(1);
        }
    }

    void awaitEgress(byte type) throws InterruptedException {
        await(() -> egressTypes.contains(type), () -> "egress of type " + type + "; got " + egressTypes);
    }

    void awaitRefusals(int count) throws InterruptedException {
        await(() -> refusals.size() >= count, () -> "refusals " + refusals);
    }

    /** Until a BATCH brought a record of this type. */
    void awaitRecord(int type) throws InterruptedException {
        await(() -> records.stream().anyMatch(record -> record.type() == type), () -> "a record of type " + type
            + "; got " + records.stream().map(BatchRecord::type).toList());
    }

    /** Polls the egress for {@code millis}, answering nothing (what a silent gateway's client library does). */
    void pollFor(long millis) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < until) {
            client.pollEgress();
            Thread.sleep(1);
        }
    }

    List<String> refusals() {
        return refusals;
    }

    List<BatchRecord> records() {
        return records;
    }

    @Override
    public void onMessage(long clusterSessionId, long timestamp, DirectBuffer buffer, int offset, int length,
                          Header header) {
        byte type = Egress.type(buffer, offset);
        egressTypes.add(type);
        if (type == Egress.REFUSED) {
            refusals.add(Egress.refusedText(buffer, offset));
        } else if (type == Egress.BATCH) {
            int end = offset + length;
            for (int at = offset + Egress.BATCH_HEADER_LENGTH; at < end; ) {
                int recordLength = Egress.recordLength(buffer, at);
                byte[] bytes = new byte[recordLength];
                buffer.getBytes(at + Egress.RECORD_HEADER_LENGTH, bytes);
                records.add(new BatchRecord(Egress.recordType(buffer, at), bytes));
                at += Egress.RECORD_HEADER_LENGTH + recordLength;
            }
        }
    }

    /** Waits up to 60 s for the condition, checking every 5 ms. */
    static void awaitCondition(BooleanSupplier condition, Supplier<String> what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting: " + what.get());
            }
            Thread.sleep(5);
        }
    }

    private void await(BooleanSupplier condition, Supplier<String> what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            client.pollEgress();
            if (condition.getAsBoolean()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting: " + what.get());
            }
            Thread.sleep(1);
        }
    }

    @Override
    public void close() {
        client.close();
        driver.close();
    }
}
