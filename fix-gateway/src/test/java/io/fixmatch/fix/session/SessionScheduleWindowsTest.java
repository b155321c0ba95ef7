package io.fixmatch.fix.session;

import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.time.ZoneId;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SessionScheduleWindowsTest {
    private static final ZoneId LONDON = ZoneId.of("Europe/London");

    private static long london(int year, int month, int day, int hour, int minute) {
        return LocalDateTime.of(year, month, day, hour, minute).atZone(LONDON).toInstant().toEpochMilli();
    }

    @Test
    void aDayWindowOnWeekdaysInLocalTimeAcrossDaylightSavingTime() {
        SessionSchedule.Window window = new SessionSchedule.Window(
            SessionSchedule.parse("08:00-17:30", "Europe/London", "MON-FRI", true));
        assertEquals(-1, window.sessionStartAt(london(2026, 3, 27, 7, 59)));
        assertEquals(london(2026, 3, 27, 8, 0), window.sessionStartAt(london(2026, 3, 27, 8, 0)));
        assertEquals(london(2026, 3, 27, 8, 0), window.sessionStartAt(london(2026, 3, 27, 17, 29)));
        assertEquals(-1, window.sessionStartAt(london(2026, 3, 27, 17, 30)));
        assertEquals(-1, window.sessionStartAt(london(2026, 3, 28, 9, 0)), "Saturday");
        // clocks go forward on Sunday 29 March: Monday's 08:00 is 07:00 UTC
        assertEquals(london(2026, 3, 30, 8, 0), window.sessionStartAt(london(2026, 3, 30, 8, 0)));
        assertEquals(LocalDateTime.of(2026, 3, 30, 7, 0).atZone(ZoneId.of("UTC")).toInstant().toEpochMilli(),
            window.sessionStartAt(london(2026, 3, 30, 12, 0)));
    }

    @Test
    void overnightAndRoundTheClockWindows() {
        SessionSchedule.Window overnight = new SessionSchedule.Window(
            SessionSchedule.parse("22:00-06:00", "UTC", null, false));
        long start = LocalDateTime.of(2026, 6, 1, 22, 0).atZone(ZoneId.of("UTC")).toInstant().toEpochMilli();
        assertEquals(start, overnight.sessionStartAt(start + 7 * 3_600_000L));
        assertEquals(-1, overnight.sessionStartAt(start + 8 * 3_600_000L));
        SessionSchedule.Window daily = new SessionSchedule.Window(SessionSchedule.parse("00:00-00:00", "UTC", null,
            true));
        assertEquals(start - 22 * 3_600_000L, daily.sessionStartAt(start));
        assertEquals(start + 2 * 3_600_000L, daily.sessionStartAt(start + 2 * 3_600_000L), "the next day's session");
    }

    @Test
    void badDefinitionsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> SessionSchedule.parse("8-17", null, null, false));
        assertThrows(IllegalArgumentException.class, () -> SessionSchedule.parse("08:00-17:00", "Mars/Base", null,
            false));
        assertThrows(IllegalArgumentException.class, () -> SessionSchedule.parse("08:00-17:00", null, "MON-FUNDAY",
            false));
        assertThrows(IllegalArgumentException.class, () -> SessionSchedule.parse(null, null, null, true));
    }
}
