package io.fixmatch.fix.dictionary;

import io.fixmatch.fix.codec.FixMessage;
import io.fixmatch.fix.codec.FixParser;
import io.fixmatch.fix.codec.FixTags;

import java.util.Arrays;

/**
 * Checks a parsed message against a {@link FixDictionary} and says what is wrong first, as a SessionRejectReason
 * ({@link SessionRejectReasons}) and the RefTagID it is about. Table lookups only: no allocation, no String.
 * One instance per thread (it keeps scratch state); the dictionary is shared.
 *
 * <p>The order of the checks is QuickFIX/J's, so that a message with several problems gets the Reject its
 * acceptance definitions expect:
 * <ol>
 *   <li>structure: BeginString, BodyLength, MsgType first; header fields before the body (14); CheckSum last
 *       (14); a tag outside repeating groups at most once (13); each repeating group starting with its delimiter,
 *       its members in order (15), as many entries as its NumInGroup says (16), a NumInGroup that is a count (6);
 *       </li>
 *   <li>MsgType: a value the FIX version does not define (11); a valid one the dictionary does not list is
 *       {@link #UNSUPPORTED_MSG_TYPE} after the header checks (the application answers with a
 *       BusinessMessageReject);</li>
 *   <li>required fields of the header, trailer and body, and of each group entry (1);</li>
 *   <li>each field in order: known to the dictionary (0), of its type's syntax (6), one of its values (5), defined
 *       for this message type (2).</li>
 * </ol>
 * The CompID (9) and SendingTime (10) checks need the session's state and are the session's; a tag without a value
 * (4) and a tag that is not a number (0) stop the parser, and {@link #parseAndValidate} reports them.
 */
public final class DictionaryValidator {
    /** Nothing wrong. */
    public static final int VALID = -1;
    /** A valid MsgType this dictionary does not list: for the application (BusinessMessageReject 380=3). */
    public static final int UNSUPPORTED_MSG_TYPE = -2;
    /** Not a message (MsgType is not the third field): ignore it as garbled, as FIX prescribes. */
    public static final int GARBLED = -3;

    private final FixDictionary dictionary;
    /** Per tag, the number of the last validation in which it was seen (outside groups). */
    private final int[] seenIn;
    /** Per field of the message, the group it belongs to, or -1. */
    private final int[] groupOfField = new int[FixMessage.MAX_FIELDS];
    private int validation;
    private int refTagId;
    private int groupFailure;

    public DictionaryValidator(FixDictionary dictionary) {
        this.dictionary = dictionary;
        this.seenIn = new int[dictionary.maxTag + 1];
    }

    public FixDictionary dictionary() {
        return dictionary;
    }

    /** After a reason: the tag it is about (RefTagID, 371); 0 after any other result. */
    public int refTagId() {
        return refTagId;
    }

    /**
     * Parses {@code length} bytes (a whole frame) into {@code message} and validates it: {@link #VALID},
     * {@link #UNSUPPORTED_MSG_TYPE}, {@link #GARBLED}, or a SessionRejectReason with {@link #refTagId()}.
     */
    public int parseAndValidate(byte[] buffer, int offset, int length, FixMessage message) {
        refTagId = 0;
        int parsed = FixParser.parse(buffer, offset, length, message);
        return switch (parsed) {
            case FixParser.OK -> validate(message);
            case FixParser.INVALID_TAG -> reject(SessionRejectReasons.INVALID_TAG_NUMBER, message.errorTag());
            case FixParser.EMPTY_VALUE -> reject(SessionRejectReasons.TAG_WITHOUT_VALUE, message.errorTag());
            case FixParser.DUPLICATE_TAG -> reject(SessionRejectReasons.TAG_APPEARS_MORE_THAN_ONCE,
                message.errorTag());
            case FixParser.MSG_TYPE_NOT_THIRD -> GARBLED;
            default -> reject(SessionRejectReasons.OTHER, 0);
        };
    }

    /** Validates a message the parser accepted; see the class comment for the result. */
    public int validate(FixMessage message) {
        refTagId = 0;
        if (++validation == 0) { // after 2^32 validations the stamps would repeat
            Arrays.fill(seenIn, 0);
            validation = 1;
        }
        int message0 = dictionary.message(message.msgType());
        int result = checkStructure(message, message0);
        if (result != VALID) {
            return result;
        }
        if (!dictionary.isValidMsgType(message.msgType())) {
            return reject(SessionRejectReasons.INVALID_MSG_TYPE, FixTags.MSG_TYPE);
        }
        result = checkRequired(dictionary.headerRequired);
        if (result == VALID) {
            result = checkRequired(dictionary.trailerRequired);
        }
        if (result == VALID && message0 != FixDictionary.NO_MESSAGE) {
            result = checkRequired(dictionary.bodyRequired[message0]);
        }
        if (result != VALID) {
            return result;
        }
        result = checkFields(message, message0);
        if (result == VALID && message0 == FixDictionary.NO_MESSAGE) {
            return UNSUPPORTED_MSG_TYPE;
        }
        return result;
    }

    private int checkStructure(FixMessage message, int messageIndex) {
        int count = message.fieldCount();
        if (count < 3 || message.tagAt(0) != FixTags.BEGIN_STRING || message.tagAt(1) != FixTags.BODY_LENGTH
            || message.tagAt(2) != FixTags.MSG_TYPE) {
            return GARBLED;
        }
        boolean inHeader = true;
        for (int i = 0; i < count; i++) {
            int tag = message.tagAt(i);
            groupOfField[i] = -1;
            if (dictionary.isTrailerField(tag)) {
                if (i != count - 1 && tag == FixTags.CHECK_SUM) {
                    return reject(SessionRejectReasons.TAG_OUT_OF_ORDER, tag);
                }
                inHeader = false;
            } else if (dictionary.isHeaderField(tag)) {
                if (!inHeader) {
                    return reject(SessionRejectReasons.TAG_OUT_OF_ORDER, tag);
                }
            } else {
                inHeader = false;
                int group = groupOf(messageIndex, tag);
                if (group >= 0) {
                    if (seenBefore(tag)) {
                        return reject(SessionRejectReasons.TAG_APPEARS_MORE_THAN_ONCE, tag);
                    }
                    int end = checkGroup(message, i, group);
                    if (end < 0) {
                        return groupFailure;
                    }
                    i = end - 1;
                    continue;
                }
            }
            if (seenBefore(tag)) {
                return reject(SessionRejectReasons.TAG_APPEARS_MORE_THAN_ONCE, tag);
            }
        }
        return VALID;
    }

    /**
     * The entries of the group whose NumInGroup is field {@code countField}: returns the index of the first field
     * after them, or -1 with the reason in {@link #groupFailure}.
     */
    private int checkGroup(FixMessage message, int countField, int group) {
        int countTag = message.tagAt(countField);
        int start = message.valueStartAt(countField);
        int length = message.valueLengthAt(countField);
        if (!FieldType.integer(message.buffer(), start, length, false)) {
            return failGroup(SessionRejectReasons.INCORRECT_DATA_FORMAT, countTag);
        }
        long declared = FixMessage.parseLong(message.buffer(), start, length);
        long requiredMask = dictionary.groupRequiredMask[group];
        int entries = 0;
        int lastPosition = -1;
        long seenMask = 0;
        int i = countField + 1;
        for (; i < message.fieldCount(); i++) {
            int tag = message.tagAt(i);
            int position = dictionary.memberPosition(group, tag);
            if (position < 0) {
                break;
            }
            if (position == 0) {
                if (entries > 0 && (seenMask & requiredMask) != requiredMask) {
                    return failGroup(SessionRejectReasons.REQUIRED_TAG_MISSING, missing(group, seenMask));
                }
                entries++;
                seenMask = 0;
            } else if (entries == 0 || position <= lastPosition) {
                return failGroup(SessionRejectReasons.GROUP_FIELDS_OUT_OF_ORDER, tag);
            }
            lastPosition = position;
            seenMask |= 1L << position;
            groupOfField[i] = group;
        }
        if (entries > 0 && (seenMask & requiredMask) != requiredMask) {
            return failGroup(SessionRejectReasons.REQUIRED_TAG_MISSING, missing(group, seenMask));
        }
        if (entries != declared) {
            return failGroup(SessionRejectReasons.INCORRECT_NUM_IN_GROUP, countTag);
        }
        return i;
    }

    private int missing(int group, long seenMask) {
        long absent = dictionary.groupRequiredMask[group] & ~seenMask;
        return dictionary.groupMembers[group][Long.numberOfTrailingZeros(absent)];
    }

    private int checkRequired(int[] requiredTags) {
        for (int tag : requiredTags) {
            if (seenIn[tag] != validation) {
                return reject(SessionRejectReasons.REQUIRED_TAG_MISSING, tag);
            }
        }
        return VALID;
    }

    /** Every field: known, well formed, an allowed value, defined here (the body only for a supported type). */
    private int checkFields(FixMessage message, int messageIndex) {
        byte[] buffer = message.buffer();
        for (int i = 0; i < message.fieldCount(); i++) {
            int tag = message.tagAt(i);
            boolean headerOrTrailer = dictionary.isHeaderField(tag) || dictionary.isTrailerField(tag);
            if (messageIndex == FixDictionary.NO_MESSAGE && !headerOrTrailer) {
                continue; // the body of a message type we do not take is not ours to judge
            }
            if (!dictionary.isField(tag)) {
                return reject(SessionRejectReasons.INVALID_TAG_NUMBER, tag);
            }
            int start = message.valueStartAt(i);
            int length = message.valueLengthAt(i);
            if (!dictionary.types[tag].accepts(buffer, start, length)) {
                return reject(SessionRejectReasons.INCORRECT_DATA_FORMAT, tag);
            }
            if (!dictionary.allows(tag, buffer, start, length)) {
                return reject(SessionRejectReasons.VALUE_INCORRECT, tag);
            }
            if (!headerOrTrailer && groupOfField[i] < 0 && dictionary.bodyRole[messageIndex][tag] == 0) {
                return reject(SessionRejectReasons.TAG_NOT_DEFINED_FOR_MESSAGE_TYPE, tag);
            }
        }
        return VALID;
    }

    /** The group whose NumInGroup the tag is in this message, or -1. */
    private int groupOf(int messageIndex, int tag) {
        if (messageIndex == FixDictionary.NO_MESSAGE || tag <= 0 || tag > dictionary.maxTag) {
            return -1;
        }
        int role = dictionary.bodyRole[messageIndex][tag];
        return role > 0 ? role - 1 : -1;
    }

    /** Marks the tag seen in this validation; whether it was already. Tags outside the dictionary are not tracked. */
    private boolean seenBefore(int tag) {
        if (tag <= 0 || tag > dictionary.maxTag) {
            return false;
        }
        boolean seen = seenIn[tag] == validation;
        seenIn[tag] = validation;
        return seen;
    }

    private int reject(int reason, int tag) {
        refTagId = tag;
        return reason;
    }

    /** For the group walk, whose results are field indexes: records the reason, returns -1. */
    private int failGroup(int reason, int tag) {
        refTagId = tag;
        groupFailure = reason;
        return -1;
    }
}
