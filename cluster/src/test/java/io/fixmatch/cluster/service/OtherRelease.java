package io.fixmatch.cluster.service;

/** A matching service as a node of another release shows it to gateways: its WELCOMEs say another protocol version. */
public final class OtherRelease {
    private OtherRelease() {
    }

    public static MatchingService welcomingWith(ServiceSettings settings, int protocolVersion) {
        return new MatchingService(settings, protocolVersion);
    }
}
