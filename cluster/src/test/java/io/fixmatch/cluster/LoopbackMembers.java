package io.fixmatch.cluster;

import io.fixmatch.cluster.node.ClusterMember;
import io.fixmatch.cluster.node.ClusterMembers;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Cluster members for tests, on loopback with ports free now: five UDP ports from each base, a TCP admin port. */
public final class LoopbackMembers {
    /**
     * The bases lie below Linux's ephemeral port range (32768 and up), so no connection's or Aeron's {@code :0}
     * port can take one between this check and the node's start; each member gets a base of its own (nothing binds
     * them before the nodes start, so the check alone would let two members draw the same one).
     */
    private static final int FIRST_BASE = 20_000;
    private static final int BASES = (32_768 - FIRST_BASE - 10) / 10;

    private LoopbackMembers() {
    }

    public static ClusterMembers free(int size) {
        Random random = new Random();
        List<ClusterMember> members = new ArrayList<>();
        while (members.size() < size) {
            int base = FIRST_BASE + random.nextInt(BASES) * 10;
            boolean taken = members.stream().anyMatch(member -> member.basePort() == base);
            if (!taken && freeBase(base)) {
                members.add(new ClusterMember(members.size(), "127.0.0.1", base, freeTcpPort()));
            }
        }
        return new ClusterMembers(members);
    }

    private static boolean freeBase(int base) {
        for (int port = base; port < base + ClusterMember.PORTS; port++) {
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
