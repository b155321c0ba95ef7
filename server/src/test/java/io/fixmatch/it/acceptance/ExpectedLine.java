package io.fixmatch.it.acceptance;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text of an {@code E} line and how a received message is compared with it, as QuickFIX/J's acceptance runner
 * does: fields are {@code tag=value<SOH>} pairs (empty values are not fields; a repeated tag keeps its last value);
 * MsgType must be equal; every received field but SendingTime(52), TransactTime(60), OrigSendingTime(122),
 * BodyLength(9) and CheckSum(10) must be expected with an equal value (Text(58): the expected text is a prefix);
 * every expected field must be received. Where the definition expects the echo of an order (its server echoes
 * them), {@link VenueMapping} says what fixmatch's answer is compared on instead.
 */
final class ExpectedLine {
    private static final Pattern FIELD = Pattern.compile("(\\d+)=([^\u0001]+)\u0001");
    private static final Set<String> NOT_COMPARED = Set.of("52", "60", "122", "9", "10");
    /** Diagnostics only ({@code -Dacceptance.ignoreText=true}): what would pass if Text(58) were not compared. */
    private static final boolean IGNORE_TEXT = Boolean.getBoolean("acceptance.ignoreText");

    private ExpectedLine() {
    }

    static Map<String, String> fields(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        Matcher matcher = FIELD.matcher(text);
        while (matcher.find()) {
            fields.put(matcher.group(1), matcher.group(2));
        }
        return fields;
    }

    /** Null if {@code received} is what {@code expectedText} expects; otherwise what differs. */
    static String mismatch(String expectedText, String received) {
        Map<String, String> expected = VenueMapping.onExpectedFields(fields(expectedText));
        Map<String, String> actual = fields(received);
        VenueMapping.Expectation mapped = VenueMapping.onExpect(expected);
        if (mapped != null) {
            return mapped.mismatch(actual);
        }
        if (!expected.get("35").equals(actual.get("35"))) {
            return "MsgType " + actual.get("35") + " instead of " + expected.get("35");
        }
        for (Map.Entry<String, String> field : actual.entrySet()) {
            String tag = field.getKey();
            if (NOT_COMPARED.contains(tag) || IGNORE_TEXT && tag.equals("58")) {
                continue;
            }
            String want = expected.get(tag);
            if (want == null) {
                return "unexpected field " + tag + "=" + field.getValue();
            }
            boolean equal = tag.equals("58") ? field.getValue().startsWith(want) : field.getValue().equals(want);
            if (!equal) {
                return tag + "=" + field.getValue() + " instead of " + tag + "=" + want;
            }
        }
        for (String tag : expected.keySet()) {
            if (!actual.containsKey(tag) && !(IGNORE_TEXT && tag.equals("58"))) {
                return "field " + tag + " missing (expected " + tag + "=" + expected.get(tag) + ")";
            }
        }
        return null;
    }
}
