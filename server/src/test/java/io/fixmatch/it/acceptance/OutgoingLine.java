package io.fixmatch.it.acceptance;

import io.fixmatch.fix.codec.testing.FixBuilder;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fixmatch.fix.codec.testing.FixBuilder.SOH;

/**
 * Turns the text of an {@code I} line into the bytes sent, as QuickFIX/J's acceptance runner does:
 * <ul>
 *   <li>a line of the form {@code 8=FIX.x.y<SOH>tail<SOH>[10=...]}: {@code <TIME>}, {@code <TIME+n>} and
 *       {@code <TIME-n>} in the tail become the current UTC timestamp (milliseconds) shifted by n x 1.1 s;
 *       BodyLength is inserted unless the tail starts with {@code 9=}; a given {@code 10=0} becomes {@code 10=000};
 *       a missing CheckSum is computed and appended;</li>
 *   <li>any other line is garbage, sent as it is (no time substitution), with a CheckSum appended unless it has
 *       one.</li>
 * </ul>
 * The venue's substitutions ({@link VenueMapping#onSend}) apply to the tail of well-formed lines only. These are the
 * runner's rules for its lines; the CheckSum and the timestamps are {@link FixBuilder}'s.
 */
final class OutgoingLine {
    private static final Pattern MESSAGE = Pattern.compile("^(8=FIXT?\\.\\d\\.\\d\u0001)(.*?\u0001)(10=.*|)$");
    private static final Pattern TIME = Pattern.compile("<TIME(?:([+-])(\\d+))?>");

    private OutgoingLine() {
    }

    static byte[] bytes(String text) {
        String message;
        Matcher matcher = MESSAGE.matcher(text);
        if (matcher.matches()) {
            String tail = VenueMapping.onSend(insertTimes(matcher.group(2)));
            String checkSum = matcher.group(3).equals("10=0" + SOH) ? "10=000" + SOH : matcher.group(3);
            message = matcher.group(1) + (tail.startsWith("9=") ? "" : "9=" + tail.length() + SOH) + tail + checkSum;
        } else {
            message = text;
        }
        if (!message.contains(SOH + "10=")) {
            message += FixBuilder.trailer(message);
        }
        return message.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String insertTimes(String tail) {
        Matcher matcher = TIME.matcher(tail);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            long offsetMs = 0;
            if (matcher.group(2) != null) {
                offsetMs = Long.parseLong(matcher.group(2)) * 1100L * (matcher.group(1).equals("-") ? -1 : 1);
            }
            matcher.appendReplacement(out, FixBuilder.timestamp(Instant.now().plusMillis(offsetMs)));
        }
        matcher.appendTail(out);
        return out.toString();
    }
}
