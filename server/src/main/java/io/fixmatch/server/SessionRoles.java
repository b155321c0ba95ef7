package io.fixmatch.server;

import io.fixmatch.fix.session.SessionConfig;
import io.fixmatch.fix.session.SessionSchedule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The session keys beyond credentials and limits: which sessions are drop copies of which
 * ({@code session.<ID>.dropCopyFor}: CompIDs, or {@code *} for every trading session), and each session's schedule
 * ({@code session.<ID>.schedule}, {@code .timeZone}, {@code .scheduleDays}, {@code .resetOnSessionStart}). Read after
 * every session is listed, because a drop-copy session may name sessions listed after it.
 */
final class SessionRoles {
    static final String ALL_SESSIONS = "*";

    private SessionRoles() {
    }

    /** Each session's schedule (null when the session has none). */
    static SessionSchedule schedule(ConfigKeys keys, String id) {
        String rangeKey = keys.each("session.<ID>.schedule", id);
        String zoneKey = keys.each("session.<ID>.timeZone", id);
        String daysKey = keys.each("session.<ID>.scheduleDays", id);
        String resetKey = keys.each("session.<ID>.resetOnSessionStart", id);
        String range = keys.optional(rangeKey);
        String zone = keys.optional(zoneKey);
        String days = keys.optional(daysKey);
        boolean reset = keys.bool(resetKey, false);
        try {
            SessionSchedule.parse(null, zone, null, false);
        } catch (IllegalArgumentException e) {
            throw keys.invalid(zoneKey, e.getMessage());
        }
        try {
            SessionSchedule.parse(null, null, days, false);
        } catch (IllegalArgumentException e) {
            throw keys.invalid(daysKey, e.getMessage());
        }
        try {
            return SessionSchedule.parse(range, zone, days, reset);
        } catch (IllegalArgumentException e) {
            throw keys.invalid(range == null ? resetKey : rangeKey, e.getMessage());
        }
    }

    /**
     * The sessions with their drop-copy coverage resolved: {@code *} becomes every session that is not itself a
     * drop copy; a named session must be listed and must not be a drop copy itself.
     */
    static List<SessionConfig> withDropCopies(ConfigKeys keys, List<SessionConfig> sessions) {
        Map<String, String> raw = new LinkedHashMap<>();
        for (SessionConfig session : sessions) {
            String key = keys.each("session.<ID>.dropCopyFor", session.clientCompId());
            String value = keys.optional(key);
            if (value != null) {
                raw.put(session.clientCompId(), value);
            }
        }
        List<SessionConfig> resolved = new ArrayList<>();
        for (SessionConfig session : sessions) {
            String value = raw.get(session.clientCompId());
            if (value == null) {
                resolved.add(session);
                continue;
            }
            String key = "session." + session.clientCompId() + ".dropCopyFor";
            List<String> covered = new ArrayList<>();
            for (String item : value.split(",")) {
                String id = item.trim();
                if (id.equals(ALL_SESSIONS)) {
                    sessions.stream().map(SessionConfig::clientCompId).filter(other -> !raw.containsKey(other))
                        .forEach(covered::add);
                } else if (!id.isEmpty()) {
                    if (sessions.stream().noneMatch(other -> other.clientCompId().equals(id))) {
                        throw keys.invalid(key, "names " + id + ", which `sessions` does not list");
                    }
                    if (raw.containsKey(id)) {
                        throw keys.invalid(key, "names " + id + ", itself a drop-copy session");
                    }
                    covered.add(id);
                }
            }
            if (covered.isEmpty()) {
                throw keys.invalid(key, "covers no trading session");
            }
            resolved.add(new SessionConfig(session.clientCompId(), session.username(), session.password(),
                session.cancelOnDisconnect(), session.latencyTrace(), session.maxMessagesPerSecond(),
                session.allowedAddresses(), covered.stream().distinct().toList(), session.schedule(),
                session.clOrdIdMemory()));
        }
        return resolved;
    }
}
