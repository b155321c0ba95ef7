package io.fixmatch.cluster.client;

/** The gateway cannot reach a cluster leader, or the cluster refused it; the message says which and why. */
public final class ClusterUnavailableException extends RuntimeException {
    public ClusterUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
