package io.fixmatch.server.admin;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;

/** One request as an endpoint sees it: the groups its route's path pattern captured, and the query parameters. */
record AdminRequest(Matcher path, Map<String, String> query, String remoteAddress) {

    /** The path's {@code group}-th captured segment (percent-decoding is not needed: names are letters and digits). */
    String segment(int group) {
        return path.group(group);
    }

    static Map<String, String> parseQuery(String rawQuery) {
        Map<String, String> query = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return query;
        }
        for (String pair : rawQuery.split("&")) {
            int equals = pair.indexOf('=');
            if (equals < 0) {
                query.put(pair, "");
            } else {
                query.put(pair.substring(0, equals), pair.substring(equals + 1));
            }
        }
        return query;
    }
}
