package io.fixmatch.server.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Sets up the server's logging once its settings are known: the built-in {@code fixmatch-logback.xml} (or
 * {@code log.config}) with the log folder and rolling limits of {@link LogSettings}. Until then logback runs with
 * the jar's console-only {@code logback.xml}.
 */
public final class ServerLogging {
    public static final String BUILT_IN = "fixmatch-logback.xml";
    private static final int COMPRESSION_WAIT_SECONDS = 30;

    private ServerLogging() {
    }

    /**
     * Replaces the logging configuration. Throws {@link IllegalStateException} with a one-line reason when the log
     * folder cannot be created or the configuration does not load.
     */
    public static void start(LogSettings settings, Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the log folder " + directory + ": " + e, e);
        }
        URL configuration = configuration(settings);
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        context.putProperty("fixmatch.log.dir", directory.toAbsolutePath().toString());
        context.putProperty("fixmatch.log.maxFileSize", settings.maxFileSize());
        context.putProperty("fixmatch.log.maxHistory", Integer.toString(settings.maxHistory()));
        context.putProperty("fixmatch.log.totalSizeCap", settings.totalSizeCap());
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        long since = System.currentTimeMillis();
        try {
            configurator.doConfigure(configuration);
        } catch (JoranException e) {
            throw new IllegalStateException("cannot load the logging configuration " + configuration + ": " + e, e);
        }
        StatusUtil status = new StatusUtil(context);
        if (status.getHighestLevel(since) >= Status.ERROR) {
            String problems = context.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getLevel() >= Status.ERROR && s.getTimestamp() >= since)
                .map(Status::getMessage).reduce((a, b) -> a + "; " + b).orElse("");
            throw new IllegalStateException("logging configuration " + configuration + ": " + problems);
        }
    }

    /**
     * Writes out what the queues still hold, lets the compression of rolled files finish, and closes the files.
     * Logback compresses each rolled file on its context's executor and, when the context stops, interrupts what still
     * runs: after a burst of rolls that leaves a truncated {@code .gz} (its text only in a {@code .tmp} file). So the
     * appenders stop first (the queues drain into the file, which may roll again), then the compressions get up to
     * {@link #COMPRESSION_WAIT_SECONDS} to finish, then the context stops.
     */
    public static void stop() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.getLogger(Logger.ROOT_LOGGER_NAME).detachAndStopAllAppenders();
        ExecutorService compressions = context.getExecutorService();
        compressions.shutdown();
        try {
            compressions.awaitTermination(COMPRESSION_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        context.stop();
    }

    private static URL configuration(LogSettings settings) {
        if (settings.configFile() == null) {
            return ServerLogging.class.getClassLoader().getResource(BUILT_IN);
        }
        try {
            return settings.configFile().toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException("log.config " + settings.configFile() + ": " + e.getMessage(), e);
        }
    }
}
