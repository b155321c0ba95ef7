package io.fixmatch.fix.dictionary;

import java.io.InputStream;
import java.util.Arrays;

/**
 * A FIX data dictionary as flat tables, for allocation-free validation ({@link DictionaryValidator}): per tag its
 * type, enumerated values and whether it belongs to the header or trailer; per message type its fields, required
 * fields and repeating groups. Built once from a QuickFIX-format XML ({@link #load}); immutable, shared by threads.
 *
 * <p>MsgType values: a type listed under {@code <messages>} is supported; a value of the MsgType field's
 * enumeration that is not is a valid FIX MsgType the venue does not accept (answered with a BusinessMessageReject);
 * anything else is an invalid MsgType (SessionRejectReason 11).
 */
public final class FixDictionary {
    /** Not a message type of this dictionary. */
    static final int NO_MESSAGE = -1;
    /** {@link #bodyRole}: the tag is a plain field of the message. */
    static final int PLAIN_FIELD = -1;
    private static final int MSG_TYPE_SPACE = 1 << 16;

    final String version;
    final int maxTag;
    final FieldType[] types;
    final boolean[] multipleValues;
    final String[] names;
    final int[] enumFirst;
    final int[] enumCount;
    final byte[][] enumValues;
    final boolean[] header;
    final boolean[] trailer;
    final int[] headerRequired;
    final int[] trailerRequired;
    final boolean[] fixMsgTypes;
    final short[] messageIndex;
    /** Per message, per tag: 0 not in the message, {@link #PLAIN_FIELD}, or 1 + the group whose NumInGroup it is. */
    final int[][] bodyRole;
    final int[][] bodyRequired;
    final int[][] groupMembers;
    final long[] groupRequiredMask;

    FixDictionary(String version, int maxTag, FieldType[] types, boolean[] multipleValues, String[] names,
                  int[] enumFirst, int[] enumCount, byte[][] enumValues, boolean[] header, boolean[] trailer,
                  int[] headerRequired, int[] trailerRequired, boolean[] fixMsgTypes, short[] messageIndex,
                  int[][] bodyRole, int[][] bodyRequired, int[][] groupMembers, long[] groupRequiredMask) {
        this.version = version;
        this.maxTag = maxTag;
        this.types = types;
        this.multipleValues = multipleValues;
        this.names = names;
        this.enumFirst = enumFirst;
        this.enumCount = enumCount;
        this.enumValues = enumValues;
        this.header = header;
        this.trailer = trailer;
        this.headerRequired = headerRequired;
        this.trailerRequired = trailerRequired;
        this.fixMsgTypes = fixMsgTypes;
        this.messageIndex = messageIndex;
        this.bodyRole = bodyRole;
        this.bodyRequired = bodyRequired;
        this.groupMembers = groupMembers;
        this.groupRequiredMask = groupRequiredMask;
    }

    /** Reads a QuickFIX-format data dictionary (see {@link DictionaryLoader} for what is supported). */
    public static FixDictionary load(InputStream xml) {
        return DictionaryLoader.load(xml);
    }

    /** "FIX.4.4" for major 4 minor 4. */
    public String version() {
        return version;
    }

    /** The highest tag number defined. */
    public int maxTag() {
        return maxTag;
    }

    /** Whether the tag is a field of this dictionary. */
    public boolean isField(int tag) {
        return tag > 0 && tag <= maxTag && types[tag] != null;
    }

    /** The field's type, or null if it is none. */
    public FieldType type(int tag) {
        return isField(tag) ? types[tag] : null;
    }

    /** The field's name, or null. */
    public String name(int tag) {
        return isField(tag) ? names[tag] : null;
    }

    public boolean isHeaderField(int tag) {
        return tag > 0 && tag <= maxTag && header[tag];
    }

    public boolean isTrailerField(int tag) {
        return tag > 0 && tag <= maxTag && trailer[tag];
    }

    /** Whether the MsgType (in {@link io.fixmatch.fix.codec.MsgTypes} int form) is a valid one of the FIX version. */
    public boolean isValidMsgType(int msgType) {
        return msgType >= 0 && msgType < MSG_TYPE_SPACE && fixMsgTypes[msgType];
    }

    /** Whether the MsgType is one of the dictionary's messages. */
    public boolean isSupportedMsgType(int msgType) {
        return message(msgType) != NO_MESSAGE;
    }

    /** Whether the tag is a field (or NumInGroup) of the message's body, outside groups. */
    public boolean isBodyField(int msgType, int tag) {
        int message = message(msgType);
        return message != NO_MESSAGE && tag > 0 && tag <= maxTag && bodyRole[message][tag] != 0;
    }

    /** Whether the tag is required in the message's body. */
    public boolean isRequired(int msgType, int tag) {
        int message = message(msgType);
        if (message == NO_MESSAGE) {
            return false;
        }
        for (int required : bodyRequired[message]) {
            if (required == tag) {
                return true;
            }
        }
        return false;
    }

    /** Whether the value is one the field allows (any value if it has no enumeration). No allocation. */
    public boolean allows(int tag, byte[] buffer, int start, int length) {
        int count = enumCount[tag];
        if (count == 0) {
            return true;
        }
        if (!multipleValues[tag]) {
            return isEnumValue(tag, buffer, start, length);
        }
        int from = start;
        int end = start + length;
        for (int i = start; i <= end; i++) {
            if (i == end || buffer[i] == ' ') {
                if (i == from || !isEnumValue(tag, buffer, from, i - from)) {
                    return false;
                }
                from = i + 1;
            }
        }
        return true;
    }

    int message(int msgType) {
        return msgType >= 0 && msgType < MSG_TYPE_SPACE ? messageIndex[msgType] : NO_MESSAGE;
    }

    /** The position of the tag in the group (0 for the delimiter), or -1 if it is not a member. */
    int memberPosition(int group, int tag) {
        int[] members = groupMembers[group];
        for (int i = 0; i < members.length; i++) {
            if (members[i] == tag) {
                return i;
            }
        }
        return -1;
    }

    private boolean isEnumValue(int tag, byte[] buffer, int start, int length) {
        int first = enumFirst[tag];
        for (int v = first; v < first + enumCount[tag]; v++) {
            byte[] value = enumValues[v];
            if (value.length == length && Arrays.equals(value, 0, length, buffer, start, start + length)) {
                return true;
            }
        }
        return false;
    }
}
