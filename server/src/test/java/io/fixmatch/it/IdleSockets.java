package io.fixmatch.it;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

import static org.junit.jupiter.api.Assertions.fail;

/** Connections that never send anything (a flood, a scan), and whether the server closed them. */
final class IdleSockets {
    private IdleSockets() {
    }

    /** Connects to the server's port from {@code localAddress} (another loopback address), or any if null. */
    static Socket open(int port, String localAddress) throws IOException {
        Socket socket = new Socket();
        if (localAddress != null) {
            socket.bind(new InetSocketAddress(localAddress, 0));
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        return socket;
    }

    /** Whether the server closed the socket within {@code ms} (end of stream or reset; nothing else may arrive). */
    static boolean closedWithin(Socket socket, long ms) throws IOException {
        socket.setSoTimeout((int) Math.max(1, ms));
        InputStream in = socket.getInputStream();
        try {
            if (in.read() >= 0) {
                fail("an idle connection got bytes from the server");
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }
}
