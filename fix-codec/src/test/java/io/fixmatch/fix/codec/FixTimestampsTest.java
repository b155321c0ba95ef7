package io.fixmatch.fix.codec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FixTimestampsTest {
    private static final DateTimeFormatter UTC_MILLIS =
        DateTimeFormatter.ofPattern("uuuuMMdd-HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter UTC_NANOS =
        DateTimeFormatter.ofPattern("uuuuMMdd-HH:mm:ss.SSSSSSSSS").withZone(ZoneOffset.UTC);
    /** 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the four-digit years. */
    private static final long MIN_MILLIS = -62_135_596_800_000L;
    private static final long MAX_MILLIS = 253_402_300_800_000L;

    private final FixTimestamps timestamps = new FixTimestamps();

    private String write(long epochNanos) {
        byte[] out = new byte[FixTimestamps.LENGTH + 6];
        out[0] = 'X';
        out[out.length - 1] = 'Y';
        assertEquals(FixTimestamps.LENGTH, timestamps.write(epochNanos, out, 3));
        assertEquals('X', out[0]);
        assertEquals(0, out[3 + FixTimestamps.LENGTH], "writes exactly LENGTH bytes");
        assertEquals('Y', out[out.length - 1]);
        return new String(out, 3, FixTimestamps.LENGTH, StandardCharsets.US_ASCII);
    }

    private static long parse(String text) {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        return FixTimestamps.parseMillis(b, 0, b.length);
    }

    private static long nanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }

    @ParameterizedTest
    @CsvSource({
        "1970-01-01T00:00:00Z, 19700101-00:00:00.000",
        "2024-02-29T23:59:59.999Z, 20240229-23:59:59.999",
        "2026-11-23T08:00:00.123Z, 20261123-08:00:00.123",
        "2100-01-01T00:00:00Z, 21000101-00:00:00.000",
        "2100-02-28T23:59:59.999Z, 21000228-23:59:59.999",
        "2100-03-01T00:00:00Z, 21000301-00:00:00.000",
        "2000-02-29T12:00:00.500Z, 20000229-12:00:00.500",
        "1999-12-31T23:59:59.999Z, 19991231-23:59:59.999",
        "1969-12-31T23:59:59.999Z, 19691231-23:59:59.999",
        "2262-04-11T23:47:16.854Z, 22620411-23:47:16.854",
    })
    void writesKnownInstants(String iso, String expected) {
        Instant instant = Instant.parse(iso);
        assertEquals(expected, UTC_MILLIS.format(instant), "the expectation agrees with java.time");
        assertEquals(expected, write(nanos(instant)));
        assertEquals(instant.toEpochMilli(), parse(expected));
    }

    @Test
    void epochZero() {
        assertEquals("19700101-00:00:00.000", write(0));
        assertEquals(0, parse("19700101-00:00:00.000"));
        assertEquals(0, parse("19700101-00:00:00"));
    }

    @Test
    void writeTruncatesToMilliseconds() {
        assertEquals("19700101-00:00:00.000", write(999_999));
        assertEquals("19700101-00:00:00.001", write(1_000_000));
        assertEquals("19691231-23:59:59.999", write(-1));
        assertEquals("19691231-23:59:59.999", write(-1_000_000));
        assertEquals("19691231-23:59:59.998", write(-1_000_001));
    }

    @Test
    void cachedDateFollowsDayChangesBothWays() {
        long midnight = nanos(Instant.parse("2026-11-23T00:00:00Z"));
        assertEquals("20261122-23:59:59.999", write(midnight - 1));
        assertEquals("20261123-00:00:00.000", write(midnight));
        assertEquals("20261122-23:59:59.999", write(midnight - 1));
        assertEquals("20261123-08:00:00.123", write(midnight + 8 * 3_600_000_000_000L + 123_000_000L));
        assertEquals("20261124-00:00:00.000", write(midnight + 86_400_000_000_000L));
    }

    @ParameterizedTest
    @CsvSource({
        "20261123-08:00:00, 0",
        "20261123-08:00:00.1, 100",
        "20261123-08:00:00.12, 120",
        "20261123-08:00:00.123, 123",
        "20261123-08:00:00.1234, 123",
        "20261123-08:00:00.12345, 123",
        "20261123-08:00:00.123456, 123",
        "20261123-08:00:00.1234567, 123",
        "20261123-08:00:00.12345678, 123",
        "20261123-08:00:00.123456789, 123",
        "20261123-08:00:00.999999999, 999",
        "20261123-08:00:00.000000001, 0",
        "20261123-08:00:00.5, 500",
        "20261123-08:00:00.05, 50",
        "20261123-08:00:00.005, 5",
    })
    void parsesZeroToNineFractionDigits(String text, int millis) {
        long base = Instant.parse("2026-11-23T08:00:00Z").toEpochMilli();
        assertEquals(base + millis, parse(text));
    }

    @Test
    void parsesAtAnOffset() {
        byte[] b = "52=20240229-23:59:59.999\u0001".getBytes(StandardCharsets.US_ASCII);
        assertEquals(Instant.parse("2024-02-29T23:59:59.999Z").toEpochMilli(), FixTimestamps.parseMillis(b, 3, 21));
        assertEquals(Instant.parse("2024-02-29T23:59:59Z").toEpochMilli(), FixTimestamps.parseMillis(b, 3, 17));
    }

    @Test
    void leapSecondIsAccepted() {
        // FIX UTCTimestamp allows second 60 for a leap second; it reads as the next second.
        assertEquals(Instant.parse("2017-01-01T00:00:00Z").toEpochMilli(), parse("20161231-23:59:60"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "20261323-08:00:00",
        "20260023-08:00:00",
        "20261100-08:00:00",
        "20261132-08:00:00",
        "20261123-24:00:00",
        "20261123-08:60:00",
        "20261123-08:00:61",
        "2026112308:00:00.000",
        "20261123 08:00:00",
        "20261123-08-00:00",
        "20261123-08:00-00",
        "2026-11-23T08:00:00",
        "2026112a-08:00:00",
        "abcdefgh-ij:kl:mn",
        "20261123-0a:00:00",
        "20261123-08:0b:00",
        "20261123-08:00:0c",
        "20261123-08:00:00.",
        "20261123-08:00:00,123",
        "20261123-08:00:00.12a",
        "20261123-08:00:00.1234567890",
        "20261123-08:00:00.123Z",
        "20261123-08:00:00 ",
        "20261123-08:00:0",
        "20261123-08:00",
        "20261123",
        "",
        "-2026112-08:00:00",
        "2026+123-08:00:00",
        "20230229-00:00:00",
        "21000229-00:00:00",
        "20260230-00:00:00",
        "20260431-00:00:00",
        "20260631-00:00:00",
        "20260931-00:00:00",
        "20261131-00:00:00",
    })
    void invalidInputs(String text) {
        assertEquals(Long.MIN_VALUE, parse(text), text);
    }

    @Test
    void lastDaysOfMonthsAreValid() {
        for (String day : new String[] {"20260131", "20260228", "20240229", "20000229", "20260331", "20260430",
            "20260531", "20260630", "20260731", "20260831", "20260930", "20261031", "20261130", "20261231"}) {
            LocalDateTime expected = LocalDateTime.parse(day + "-00:00:00",
                DateTimeFormatter.ofPattern("uuuuMMdd-HH:mm:ss"));
            assertEquals(expected.toInstant(ZoneOffset.UTC).toEpochMilli(), parse(day + "-00:00:00"), day);
        }
    }

    @Test
    void randomizedCrossCheckAgainstJavaTime() {
        Random random = new Random(123456789);
        byte[] buffer = new byte[FixTimestamps.LENGTH];
        for (int i = 0; i < 20_000; i++) {
            long epochNanos = random.nextLong();
            if (i % 4 == 0) {
                epochNanos = random.nextLong(4_102_444_800_000_000_000L); // 1970..2100, where real timestamps are
            }
            long millis = Math.floorDiv(epochNanos, 1_000_000L);
            String expected = UTC_MILLIS.format(Instant.ofEpochSecond(0, epochNanos));
            timestamps.write(epochNanos, buffer, 0);
            String written = new String(buffer, StandardCharsets.US_ASCII);
            assertEquals(expected, written, "nanos " + epochNanos);
            assertEquals(millis, FixTimestamps.parseMillis(buffer, 0, buffer.length), expected);
            assertEquals(Instant.ofEpochMilli(millis), Instant.ofEpochSecond(0, epochNanos).truncatedTo(
                java.time.temporal.ChronoUnit.MILLIS));
        }
    }

    @Test
    void randomizedParseCrossCheckOverTheWholeFourDigitYearRange() {
        Random random = new Random(987654321);
        for (int i = 0; i < 20_000; i++) {
            long seconds = Math.floorDiv(MIN_MILLIS, 1000) + random.nextLong((MAX_MILLIS - MIN_MILLIS) / 1000);
            int nanoOfSecond = random.nextInt(1_000_000_000);
            Instant instant = Instant.ofEpochSecond(seconds, nanoOfSecond);
            String full = UTC_NANOS.format(instant);
            int fractionDigits = random.nextInt(10);
            String text = fractionDigits == 0 ? full.substring(0, 17) : full.substring(0, 18 + fractionDigits);
            int millisOfSecond = nanoOfSecond / 1_000_000;
            if (fractionDigits == 0) {
                millisOfSecond = 0;
            } else if (fractionDigits == 1) {
                millisOfSecond = millisOfSecond / 100 * 100;
            } else if (fractionDigits == 2) {
                millisOfSecond = millisOfSecond / 10 * 10;
            }
            assertEquals(seconds * 1000 + millisOfSecond, parse(text), text);
        }
    }

    @Test
    void writesTheWholeFourDigitYearRange() {
        byte[] buffer = new byte[FixTimestamps.LENGTH];
        // Epoch nanos in a long reach 1677..2262; check every year start in that range.
        for (int year = 1678; year <= 2261; year++) {
            Instant start = LocalDateTime.of(year, 1, 1, 0, 0).toInstant(ZoneOffset.UTC);
            for (long delta : new long[] {-1, 0, 1}) {
                Instant instant = start.plusMillis(delta);
                timestamps.write(nanos(instant), buffer, 0);
                assertEquals(UTC_MILLIS.format(instant), new String(buffer, StandardCharsets.US_ASCII));
            }
        }
    }
}
