package io.fixmatch.loadgen.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the numbers were measured on: CPU, cores, memory, OS, JVM. */
public final class MachineInfo {
    private MachineInfo() {
    }

    public static Map<String, String> describe() {
        Map<String, String> info = new LinkedHashMap<>();
        info.put("cpu", cpuModel());
        info.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        info.put("memory_gib", String.format("%.1f", totalMemoryBytes() / (1024.0 * 1024 * 1024)));
        info.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch"));
        info.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
            + " (" + System.getProperty("java.vm.vendor") + ")");
        info.put("jvm_args", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(a -> !a.startsWith("--add-")).toList()));
        return info;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        return System.getProperty("os.arch");
    }

    private static long totalMemoryBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        return Runtime.getRuntime().maxMemory();
    }
}
