package io.fixmatch.server;

/**
 * Which threads do the work ({@code server.layout}, docs/PERFORMANCE.md):
 * <ul>
 *   <li>{@code one-thread}: one gateway thread owns every session and runs the matching step in its own duty cycle:
 *       no hand-off between threads at all. For machines with few cores; needs {@code gateway.threads=1}.</li>
 *   <li>{@code two-threads}: gateway thread(s) plus the matching thread of its own (pinned with
 *       {@code engine.cpu}), linked by the rings. For machines with a core to spare for each.</li>
 * </ul>
 */
public enum ThreadLayout {
    ONE_THREAD("one-thread"),
    TWO_THREADS("two-threads");

    private final String configName;

    ThreadLayout(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    static ThreadLayout byName(String name) {
        for (ThreadLayout layout : values()) {
            if (layout.configName.equals(name)) {
                return layout;
            }
        }
        throw new IllegalArgumentException("server.layout must be one-thread or two-threads, was " + name);
    }
}
