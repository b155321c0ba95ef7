package io.fixmatch.cluster.testing;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Cluster members for tests, on loopback with ports free now: five UDP ports from each base, a TCP admin port. Given
 * as a {@code cluster.members} value ({@code id,host,basePort,adminPort;...}), which the tests put in a configuration
 * or parse ({@code ClusterMembers.parse}): this module depends on no cluster code, so the cluster module's own tests
 * can use it.
 */
public final class LoopbackMembers {
    /** The UDP ports a member listens on from its base: ClusterMember.PORTS. */
    private static final int PORTS_PER_MEMBER = 5;
    /**
     * The bases lie below Linux's ephemeral port range (32768 and up), so no connection's or Aeron's {@code :0}
     * port can take one between this check and the node's start; each member gets a base of its own (nothing binds
     * them before the nodes start, so the check alone would let two members draw the same one).
     */
    private static final int FIRST_BASE = 20_000;
    private static final int BASES = (32_768 - FIRST_BASE - 10) / 10;

    private LoopbackMembers() {
    }

    /** {@code size} members, ids 0..size-1 on 127.0.0.1, as {@code cluster.members} lists them. */
    public static String free(int size) {
        Random random = new Random();
        List<Integer> bases = new ArrayList<>();
        List<Integer> adminPorts = new ArrayList<>();
        StringBuilder members = new StringBuilder();
        while (bases.size() < size) {
            int base = FIRST_BASE + random.nextInt(BASES) * 10;
            // An admin port is a free ephemeral one, closed at once: the kernel may hand it out again, so each member's
            // must differ from the others' (two members once drew the same one and the venue refused to start).
            int adminPort = freeTcpPort();
            if (!bases.contains(base) && !adminPorts.contains(adminPort) && freeBase(base)) {
                members.append(bases.size()).append(",127.0.0.1,").append(base).append(',').append(adminPort)
                    .append(';');
                bases.add(base);
                adminPorts.add(adminPort);
            }
        }
        return members.toString();
    }

    private static boolean freeBase(int base) {
        for (int port = base; port < base + PORTS_PER_MEMBER; port++) {
            try (DatagramSocket socket = new DatagramSocket(port, InetAddress.getLoopbackAddress())) {
                socket.getLocalPort();
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

    private static int freeTcpPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
