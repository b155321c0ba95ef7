package io.fixmatch.it.crash;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on loopback between FIX clients and one gateway, for the fencing test: it forwards both ways until the
 * test {@link #cut cuts} the clients off. Then the clients' side closes (they reconnect elsewhere) and no new client
 * is let in, while the gateway's side stays open and every byte the gateway still writes on it is counted: a gateway
 * that lost its sessions must write none.
 */
final class CuttableProxy implements AutoCloseable {
    private final ServerSocket listening;
    private final int targetPort;
    private final List<Socket> sockets = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong bytesFromGatewayAfterCut = new AtomicLong();
    private volatile boolean cut;

    CuttableProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "proxy-accept-" + targetPort);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listening.getLocalPort();
    }

    /** The clients lose their connections (and cannot make new ones); the gateway's connections stay open. */
    synchronized void cut() throws IOException {
        cut = true;
        listening.close();
        for (int i = 0; i < sockets.size(); i += 2) {
            sockets.get(i).close(); // the client's side of each pair
        }
    }

    /** Bytes the gateway wrote on its side after {@link #cut}. */
    long bytesFromGatewayAfterCut() {
        return bytesFromGatewayAfterCut.get();
    }

    private void accept() {
        while (!cut) {
            try {
                Socket client = listening.accept();
                if (cut) {
                    client.close();
                    return;
                }
                Socket gateway = new Socket();
                gateway.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
                synchronized (this) {
                    sockets.add(client);
                    sockets.add(gateway);
                }
                pump(client, gateway, false);
                pump(gateway, client, true);
            } catch (IOException e) {
                return; // closed: cut, or the test is over
            }
        }
    }

    private void pump(Socket from, Socket to, boolean fromGateway) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    if (cut) {
                        if (fromGateway) {
                            bytesFromGatewayAfterCut.addAndGet(read);
                        }
                        continue; // nothing crosses any more
                    }
                    out.write(buffer, 0, read);
                }
            } catch (IOException e) {
                // a side closed
            }
            if (!cut) {
                closeQuietly(to); // one side closed: the other follows (after a cut the gateway's side stays open)
            }
        }, "proxy-" + (fromGateway ? "from" : "to") + "-gateway-" + targetPort);
        thread.setDaemon(true);
        synchronized (this) {
            threads.add(thread);
        }
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing
        }
    }

    @Override
    public synchronized void close() throws IOException {
        cut = true;
        listening.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }
}
