package io.fixmatch.feed.publisher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayDeque;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A UDP relay between a publisher and a handler that does to datagrams what a network does: each one, 1 in 100 (say),
 * is dropped, 1 in 100 sent twice, 1 in 100 held back and sent after the next few (reordered), and now and then
 * (1 in {@code burstEvery}) a burst of 50 in a row is dropped. Seeded: a failing run can be replayed. Its own thread.
 */
final class ImpairedLink implements AutoCloseable {
    private final DatagramChannel channel;
    private final Random random;
    private final int burstEvery;
    private final int oneIn;
    private final Thread thread;
    private volatile InetSocketAddress target;
    private volatile boolean running = true;
    /** While true every datagram is dropped (a handler cut off). */
    volatile boolean cut;
    /** Once true every datagram passes, after any held back (the network well again: {@link #heal}). */
    private volatile boolean healed;
    /** Datagrams taken from the socket, whatever then became of them, and when the last one was. */
    final AtomicLong received = new AtomicLong();
    volatile long lastReceivedNanos = System.nanoTime();
    final AtomicLong relayed = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();
    final AtomicLong duplicated = new AtomicLong();
    final AtomicLong reordered = new AtomicLong();
    final AtomicLong bursts = new AtomicLong();

    /**
     * @param oneIn      each of drop, duplicate and reorder happens to 1 datagram in this many (0: never)
     * @param burstEvery a burst of 50 dropped starts at 1 datagram in this many (0: never)
     */
    ImpairedLink(long seed, int oneIn, int burstEvery) {
        this.random = new Random(seed);
        this.oneIn = oneIn;
        this.burstEvery = burstEvery;
        try {
            channel = DatagramChannel.open(StandardProtocolFamily.INET);
            channel.bind(new InetSocketAddress("127.0.0.1", 0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        thread = new Thread(this::run, "impaired-link");
        thread.setDaemon(true);
        thread.start();
    }

    InetSocketAddress address() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void target(InetSocketAddress to) {
        target = to;
    }

    /**
     * From now on passes every datagram as it comes. A test heals the link when its flow ends: the link counts
     * datagrams, so on the quiet stream after the flow a burst of 50 would drop the next 50 heartbeats (one a second)
     * and a held-back datagram would wait for three of them (seen: a 5 s test taking 54 s).
     */
    void heal() {
        healed = true;
    }

    private void run() {
        ByteBuffer buffer = ByteBuffer.allocate(65_536);
        ArrayDeque<byte[]> held = new ArrayDeque<>();
        int holdFor = 0;
        int burstLeft = 0;
        try {
            while (running) {
                buffer.clear();
                SocketAddress from = channel.receive(buffer);
                if (from == null || target == null) {
                    continue;
                }
                received.incrementAndGet();
                lastReceivedNanos = System.nanoTime();
                byte[] datagram = new byte[buffer.position()];
                buffer.flip().get(datagram);
                if (cut) {
                    dropped.incrementAndGet();
                    continue;
                }
                if (healed) {
                    while (!held.isEmpty()) {
                        send(held.poll());
                    }
                    send(datagram);
                    continue;
                }
                if (burstLeft > 0) {
                    burstLeft--;
                    dropped.incrementAndGet();
                    continue;
                }
                if (burstEvery > 0 && random.nextInt(burstEvery) == 0) {
                    bursts.incrementAndGet();
                    burstLeft = 49;
                    dropped.incrementAndGet();
                    continue;
                }
                int roll = oneIn == 0 ? 3 : random.nextInt(oneIn);
                if (roll == 0) {
                    dropped.incrementAndGet();
                } else if (roll == 1) {
                    duplicated.incrementAndGet();
                    send(datagram);
                    send(datagram);
                } else if (roll == 2) {
                    reordered.incrementAndGet();
                    held.add(datagram);
                    holdFor = 1 + random.nextInt(3);
                } else {
                    send(datagram);
                }
                if (!held.isEmpty() && roll != 2 && --holdFor <= 0) { // (3 and above: passed on)
                    while (!held.isEmpty()) {
                        send(held.poll());
                    }
                }
            }
        } catch (IOException e) {
            // closed
        }
    }

    private void send(byte[] datagram) throws IOException {
        channel.send(ByteBuffer.wrap(datagram), target);
        relayed.incrementAndGet();
    }

    @Override
    public void close() {
        running = false;
        try {
            channel.close();
            thread.join(5000);
        } catch (IOException e) {
            // closing
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "relayed " + relayed + ", dropped " + dropped + " (" + bursts + " bursts of 50), duplicated "
            + duplicated + ", reordered " + reordered;
    }
}
