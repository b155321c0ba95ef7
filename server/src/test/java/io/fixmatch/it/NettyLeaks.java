package io.fixmatch.it;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Netty's leak detector at PARANOID (every buffer tracked, with where it was created and touched), and the leaks it
 * reports collected from its log. A leak is reported only after the leaked buffer was garbage-collected and another
 * buffer was tracked, so {@link #collect()} runs the collector and allocates until reports stop coming.
 */
final class NettyLeaks implements AutoCloseable {
    private final ResourceLeakDetector.Level previous = ResourceLeakDetector.getLevel();
    private final Logger logger = (Logger) LoggerFactory.getLogger(ResourceLeakDetector.class);
    private final ListAppender<ILoggingEvent> reports = new ListAppender<>();

    NettyLeaks() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        reports.start();
        logger.addAppender(reports);
    }

    /** Runs the collector and lets the detector report; returns every leak report so far. */
    List<String> collect() throws InterruptedException {
        for (int round = 0; round < 5; round++) {
            System.gc();
            Thread.sleep(100);
            for (int i = 0; i < 64; i++) { // each tracked allocation polls the detector's queue of collected buffers
                PooledByteBufAllocator.DEFAULT.directBuffer(16).release();
                PooledByteBufAllocator.DEFAULT.heapBuffer(16).release();
            }
        }
        return reports.list.stream().filter(event -> event.getLevel().isGreaterOrEqual(Level.ERROR))
            .map(ILoggingEvent::getFormattedMessage).filter(message -> message.contains("LEAK")).toList();
    }

    @Override
    public void close() {
        logger.detachAppender(reports);
        ResourceLeakDetector.setLevel(previous);
    }
}
