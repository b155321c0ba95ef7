package io.fixmatch.client;

import quickfix.FieldNotFound;
import quickfix.Message;

/** Reading QuickFIX/J messages without checked exceptions. */
final class Fields {
    private Fields() {
    }

    /** A body or header field's text, or null when absent. */
    static String of(Message message, int tag) {
        try {
            if (message.isSetField(tag)) {
                return message.getString(tag);
            }
            return message.getHeader().isSetField(tag) ? message.getHeader().getString(tag) : null;
        } catch (FieldNotFound e) {
            return null;
        }
    }
}
