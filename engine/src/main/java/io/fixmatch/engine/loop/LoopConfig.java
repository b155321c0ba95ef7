package io.fixmatch.engine.loop;

/**
 * How the matching thread runs.
 *
 * @param cpu               the CPU to pin the matching thread to; negative for none
 * @param idleStrategy      what the thread does when idle, by name (see {@link IdleStrategies})
 * @param inboundRingBytes  capacity of the command ring, a power of two
 * @param outboundRingBytes capacity of the event ring, a power of two
 * @param batchLimit        the most commands taken from the ring in one go
 */
public record LoopConfig(int cpu, String idleStrategy, int inboundRingBytes, int outboundRingBytes, int batchLimit) {

    public LoopConfig {
        IdleStrategies.byName(idleStrategy);
        requirePowerOfTwo("inboundRingBytes", inboundRingBytes);
        requirePowerOfTwo("outboundRingBytes", outboundRingBytes);
        if (batchLimit <= 0) {
            throw new IllegalArgumentException("batchLimit must be positive, was " + batchLimit);
        }
    }

    /** Unpinned, backing off when idle, 4 MiB in, 16 MiB out. */
    public static LoopConfig defaults() {
        return new LoopConfig(-1, IdleStrategies.DEFAULT, 1 << 22, 1 << 24, 256);
    }

    public LoopConfig withCpu(int value) {
        return new LoopConfig(value, idleStrategy, inboundRingBytes, outboundRingBytes, batchLimit);
    }

    public LoopConfig withIdleStrategy(String value) {
        return new LoopConfig(cpu, value, inboundRingBytes, outboundRingBytes, batchLimit);
    }

    private static void requirePowerOfTwo(String name, int value) {
        if (value < 1024 || Integer.bitCount(value) != 1) {
            throw new IllegalArgumentException(name + " must be a power of two >= 1024, was " + value);
        }
    }
}
