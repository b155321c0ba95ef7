package io.fixmatch.fix.codec;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A growable byte stream with a read and a write position, for feeding the framer in tests the way a connection's
 * read buffer does: bytes are appended at the write position and consumed from the read position.
 */
final class TestStream {
    private final MutableDirectBuffer buffer = new ExpandableArrayBuffer(256);
    private int readerIndex;
    private int writerIndex;

    static TestStream buffer() {
        return new TestStream();
    }

    static TestStream wrappedBuffer(byte[] bytes) {
        return wrappedBuffer(bytes, 0, bytes.length);
    }

    static TestStream wrappedBuffer(byte[] bytes, int offset, int length) {
        TestStream stream = new TestStream();
        stream.writeBytes(bytes, offset, length);
        return stream;
    }

    /** What the framer says of the unread bytes. */
    int scanWith(FixFramer framer) {
        return framer.scan(buffer, readerIndex, writerIndex);
    }

    int readerIndex() {
        return readerIndex;
    }

    void readerIndex(int index) {
        readerIndex = index;
    }

    int readableBytes() {
        return writerIndex - readerIndex;
    }

    void writeByte(int value) {
        buffer.putByte(writerIndex++, (byte) value);
    }

    void writeBytes(byte[] bytes) {
        writeBytes(bytes, 0, bytes.length);
    }

    void writeBytes(byte[] bytes, int offset, int length) {
        buffer.putBytes(writerIndex, bytes, offset, length);
        writerIndex += length;
    }

    void readBytes(byte[] target) {
        buffer.getBytes(readerIndex, target);
        readerIndex += target.length;
    }

    void skipBytes(int count) {
        readerIndex += count;
    }
}
