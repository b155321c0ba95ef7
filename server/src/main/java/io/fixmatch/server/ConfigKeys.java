package io.fixmatch.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Typed reads of configuration keys. Each key's value comes from the first of: a command-line flag, an environment
 * variable, the configuration file, the default given in the code. Every key read is recorded (with its default,
 * its value and where the value came from), so that what the file and the environment set can be checked against
 * what the code reads ({@link #refuseUnknown}), the start line can say where each setting came from
 * ({@link #overrides}), and the documentation can be checked against the code ({@link #reads}).
 *
 * <p>Environment variables: {@code FIXMATCH_} and the key in upper case, dots and camel case humps as
 * underscores: {@code fix.port} is {@code FIXMATCH_FIX_PORT}, {@code engine.maxOrders} is
 * {@code FIXMATCH_ENGINE_MAX_ORDERS}. In a session's or symbol's key the CompID or symbol is kept as written (other
 * characters than letters and digits become underscores): {@code session.CLIENT1.password} is
 * {@code FIXMATCH_SESSION_CLIENT1_PASSWORD}.
 *
 * <p>A blank value counts as not set. Errors are {@link ConfigException}s naming the key and the value's source.
 */
public final class ConfigKeys {
    public static final String ENVIRONMENT_PREFIX = "FIXMATCH_";
    /** Variables the scripts read themselves: not configuration keys, so never refused as unknown. */
    public static final Set<String> SCRIPT_VARIABLES = Set.of("FIXMATCH_JAVA_OPTS", "FIXMATCH_SKIP_BUILD");
    private static final String EMBEDDED_NAME = "the embedded defaults (" + ServerConfig.EMBEDDED + " in the jar)";

    /** A command-line flag that sets a key, e.g. {@code --port} for {@code fix.port}. */
    public record Flag(String name, String key, String value) {
    }

    /** Where a value came from, in increasing precedence. */
    public enum Origin { DEFAULT, FILE, ENVIRONMENT, FLAG }

    /**
     * One key the code read.
     *
     * @param key             the key, e.g. {@code session.CLIENT1.password}
     * @param name            its documented name: the key, or for a session's or symbol's key its pattern, e.g.
     *                        {@code session.<ID>.password}
     * @param environmentName the environment variable that sets it
     * @param defaultValue    the value when nothing sets it (null: none)
     * @param value           the value in force (null: none)
     * @param origin          where the value came from
     * @param source          the file, variable or flag that set it (null for the default)
     */
    public record Read(String key, String name, String environmentName, String defaultValue, String value,
                       Origin origin, String source) {
        /** Where the value came from, for messages. */
        String where() {
            return switch (origin) {
                case DEFAULT -> "the default";
                case FILE -> "in " + source;
                case ENVIRONMENT -> "from environment variable " + source;
                case FLAG -> "from " + source;
            };
        }
    }

    private final Properties file;
    private final String fileName;
    private final Map<String, String> environment;
    private final Map<String, Flag> flags = new LinkedHashMap<>();
    private final Map<String, Read> reads = new LinkedHashMap<>();
    /** Per-session and per-symbol keys read so far: key -> {pattern, item}. */
    private final Map<String, String[]> patterned = new LinkedHashMap<>();
    private final List<String> warnings;

    private ConfigKeys(Properties file, String fileName, Map<String, String> environment, List<Flag> flags,
                       List<String> warnings) {
        this.file = file;
        this.fileName = fileName;
        this.environment = Map.copyOf(environment);
        for (Flag flag : flags) {
            this.flags.put(flag.key(), flag);
        }
        this.warnings = List.copyOf(warnings);
    }

    /** Keys from properties alone (no environment, no flags); {@code sourceName} names them in messages. */
    public static ConfigKeys of(Properties properties, String sourceName) {
        return new ConfigKeys(properties, sourceName, Map.of(), List.of(), List.of());
    }

    /** A configuration file, overridden by the environment's {@code FIXMATCH_...} variables and by flags. */
    public static ConfigKeys load(Path file, Map<String, String> environment, List<Flag> flags) {
        DuplicateNoticingProperties properties = new DuplicateNoticingProperties(file.toString());
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (NoSuchFileException e) {
            throw new ConfigException("cannot read config file " + file + ": no such file", e);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException("cannot read config file " + file + ": " + e, e);
        }
        return new ConfigKeys(properties, file.toString(), environment, flags, properties.warnings);
    }

    /** The defaults embedded in the server jar, overridden by the environment and by flags. */
    public static ConfigKeys embedded(Map<String, String> environment, List<Flag> flags) {
        DuplicateNoticingProperties properties = new DuplicateNoticingProperties(EMBEDDED_NAME);
        try (InputStream in = ConfigKeys.class.getClassLoader().getResourceAsStream(ServerConfig.EMBEDDED)) {
            if (in == null) {
                throw new IllegalStateException(ServerConfig.EMBEDDED + " is missing from the classpath");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the embedded " + ServerConfig.EMBEDDED, e);
        }
        return new ConfigKeys(properties, EMBEDDED_NAME, environment, flags, properties.warnings);
    }

    /** A process's keys: the configuration file it was given, or when none the embedded defaults, then the
     *  environment and its flags. */
    public static ConfigKeys fileOrEmbedded(Path file, Map<String, String> environment, List<Flag> flags) {
        return file == null ? embedded(environment, flags) : load(file, environment, flags);
    }

    /** The file the configuration came from (or a description of the embedded defaults). */
    public String sourceName() {
        return fileName;
    }

    /**
     * The key of one session's or one symbol's setting, recorded with its pattern:
     * {@code each("session.<ID>.password", "CLIENT1")} is {@code session.CLIENT1.password}.
     */
    public String each(String pattern, String item) {
        int start = pattern.indexOf('<');
        int end = pattern.indexOf('>', start);
        if (start < 0 || end < 0) {
            throw new IllegalArgumentException("no <ITEM> in " + pattern);
        }
        String key = pattern.substring(0, start) + item + pattern.substring(end + 1);
        patterned.put(key, new String[] {pattern, item});
        return key;
    }

    public String optional(String key) {
        return resolve(key, null).value();
    }

    public String text(String key, String fallback) {
        return resolve(key, fallback).value();
    }

    /** A comma-separated list, never empty. */
    public List<String> list(String key, String fallback) {
        Read read = resolve(key, fallback);
        List<String> items = new ArrayList<>();
        for (String item : read.value().split(",")) {
            if (!item.isBlank()) {
                items.add(item.trim());
            }
        }
        if (items.isEmpty()) {
            throw invalid(read, "is empty");
        }
        return items;
    }

    public int integer(String key, int fallback, int min, int max) {
        Read read = resolve(key, Integer.toString(fallback));
        long value = number(read);
        if (value < min || value > max) {
            throw invalid(read, "must be " + min + ".." + max + ", was " + value);
        }
        return (int) value;
    }

    public long positiveLong(String key, long fallback) {
        Read read = resolve(key, Long.toString(fallback));
        long value = number(read);
        if (value <= 0) {
            throw invalid(read, "must be positive, was " + value);
        }
        return value;
    }

    public boolean bool(String key, boolean fallback) {
        Read read = resolve(key, Boolean.toString(fallback));
        if (!read.value().equals("true") && !read.value().equals("false")) {
            throw invalid(read, "must be true or false, was " + read.value());
        }
        return Boolean.parseBoolean(read.value());
    }

    public BigDecimal decimal(String key, BigDecimal fallback) {
        Read read = resolve(key, fallback.toPlainString());
        try {
            return new BigDecimal(read.value());
        } catch (NumberFormatException e) {
            throw invalid(read, "must be a decimal number, was " + read.value());
        }
    }

    /** A refusal of a key already read: the message names the key and where its value came from. */
    public ConfigException invalid(String key, String problem) {
        Read read = reads.get(key);
        if (read == null) {
            throw new IllegalStateException(key + " was not read");
        }
        return invalid(read, problem);
    }

    /**
     * Refuses what names no key the code read: a key in the file, a {@code FIXMATCH_...} environment variable
     * (except {@link #SCRIPT_VARIABLES}). Call after every key is read.
     */
    public void refuseUnknown() {
        for (String key : new TreeSet<>(file.stringPropertyNames())) {
            if (!reads.containsKey(key)) {
                throw new ConfigException("unknown key " + key + " in " + fileName + hint(key, reads.keySet()));
            }
        }
        Set<String> variables = new TreeSet<>();
        reads.values().forEach(read -> variables.add(read.environmentName()));
        for (String variable : new TreeSet<>(environment.keySet())) {
            if (variable.startsWith(ENVIRONMENT_PREFIX) && !variables.contains(variable)
                && !SCRIPT_VARIABLES.contains(variable)) {
                throw new ConfigException("unknown environment variable " + variable + hint(variable, variables));
            }
        }
        for (Flag flag : flags.values()) {
            if (!reads.containsKey(flag.key())) {
                throw new IllegalStateException(flag.name() + " sets " + flag.key() + ", which is never read");
            }
        }
    }

    /** Every key read, in the order read. */
    public Collection<Read> reads() {
        return List.copyOf(reads.values());
    }

    /**
     * What differs from the defaults and where it came from, e.g. {@code fix.port=9999 (FIXMATCH_FIX_PORT)};
     * passwords are masked.
     */
    public List<String> overrides() {
        List<String> overrides = new ArrayList<>();
        for (Read read : reads.values()) {
            if (read.origin() != Origin.DEFAULT && !Objects.equals(read.value(), read.defaultValue())) {
                String value = isSecret(read.key()) ? "***" : read.value();
                overrides.add(read.key() + "=" + value + " (" + read.source() + ")");
            }
        }
        return overrides;
    }

    /** Harmless oddities of the file (a key set twice), for the log. */
    public List<String> warnings() {
        return warnings;
    }

    /**
     * Keys whose values are never shown: passwords ({@code session.<ID>.password}, {@code fix.tls.keyStorePassword})
     * and the admin endpoint's token.
     */
    static boolean isSecret(String key) {
        return key.toLowerCase(Locale.ROOT).endsWith("password") || key.equals("admin.token");
    }

    /** The environment variable of a key that is not a session's or a symbol's. */
    public static String environmentName(String key) {
        return environmentName(key, null);
    }

    private static String environmentName(String pattern, String item) {
        StringBuilder name = new StringBuilder(ENVIRONMENT_PREFIX);
        for (String segment : pattern.split("\\.")) {
            if (name.length() > ENVIRONMENT_PREFIX.length()) {
                name.append('_');
            }
            if (item != null && segment.startsWith("<")) {
                name.append(item.replaceAll("[^A-Za-z0-9]", "_"));
            } else {
                name.append(segment.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT));
            }
        }
        return name.toString();
    }

    private Read resolve(String key, String defaultValue) {
        String[] pattern = patterned.get(key);
        String name = pattern == null ? key : pattern[0];
        String variable = pattern == null ? environmentName(key) : environmentName(pattern[0], pattern[1]);
        Read read;
        Flag flag = flags.get(key);
        if (flag != null && !blank(flag.value())) {
            read = new Read(key, name, variable, defaultValue, flag.value().trim(), Origin.FLAG, flag.name());
        } else if (!blank(environment.get(variable))) {
            read = new Read(key, name, variable, defaultValue, environment.get(variable).trim(), Origin.ENVIRONMENT,
                variable);
        } else if (!blank(file.getProperty(key))) {
            read = new Read(key, name, variable, defaultValue, file.getProperty(key).trim(), Origin.FILE, fileName);
        } else {
            read = new Read(key, name, variable, defaultValue, defaultValue, Origin.DEFAULT, null);
        }
        reads.putIfAbsent(key, read);
        return read;
    }

    private static long number(Read read) {
        try {
            return Long.parseLong(read.value());
        } catch (NumberFormatException e) {
            throw invalid(read, "must be a whole number, was " + read.value());
        }
    }

    private static ConfigException invalid(Read read, String problem) {
        return new ConfigException(read.key() + " " + problem + " (" + read.where() + ")");
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    /** " (did you mean X?)" for the closest known name, or "" when none is close. */
    private String hint(String unknown, Set<String> known) {
        Optional<String> closest = Spelling.closest(unknown, known);
        if (closest.isPresent()) {
            return " (did you mean " + closest.get() + "?)";
        }
        for (String[] pattern : patterned.values()) {
            String regex = Pattern.quote(pattern[0].substring(0, pattern[0].indexOf('<'))) + "[^.]+"
                + Pattern.quote(pattern[0].substring(pattern[0].indexOf('>') + 1));
            if (unknown.matches(regex)) {
                return " (" + pattern[0] + " is read only for the sessions and symbols listed)";
            }
        }
        return "";
    }

    /** Properties that note a key set twice (the last value applies, as {@link Properties} always did). */
    private static final class DuplicateNoticingProperties extends Properties {
        private final String fileName;
        private final List<String> warnings = new ArrayList<>();

        DuplicateNoticingProperties(String fileName) {
            this.fileName = fileName;
        }

        @Override
        public synchronized Object put(Object key, Object value) {
            Object previous = super.put(key, value);
            if (previous != null) {
                String shown = isSecret(key.toString()) ? "***" : value.toString();
                warnings.add(key + " is set twice in " + fileName + "; the last value (" + shown + ") applies");
            }
            return previous;
        }
    }
}
