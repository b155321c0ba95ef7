package io.fixmatch.cluster.node;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The cluster's members, as {@code cluster.members} lists them: one entry per node, {@code id,host,basePort,adminPort},
 * entries separated by {@code ;} or line breaks. Ids run 0..n-1; no two members share a port on one host.
 */
public record ClusterMembers(List<ClusterMember> members) {

    public ClusterMembers {
        members = List.copyOf(members);
    }

    /** Parses the configured value; {@link IllegalArgumentException} saying what is wrong. */
    public static ClusterMembers parse(String value) {
        List<ClusterMember> members = new ArrayList<>();
        for (String entry : value.split("[;\\n]")) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            String[] fields = trimmed.split("\\s*,\\s*");
            if (fields.length != 4) {
                throw new IllegalArgumentException("entry '" + trimmed + "' is not id,host,basePort,adminPort");
            }
            try {
                members.add(new ClusterMember(Integer.parseInt(fields[0]), fields[1], port(fields[2], trimmed),
                    port(fields[3], trimmed)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("entry '" + trimmed + "' has a number that is not one", e);
            }
        }
        ClusterMembers parsed = new ClusterMembers(members);
        parsed.check();
        return parsed;
    }

    private static int port(String text, String entry) {
        int port = Integer.parseInt(text);
        if (port < 1 || port > 65535 - ClusterMember.PORTS) {
            throw new IllegalArgumentException("entry '" + entry + "' has port " + port + " out of range");
        }
        return port;
    }

    private void check() {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("no members");
        }
        Set<String> ports = new HashSet<>();
        for (int i = 0; i < members.size(); i++) {
            ClusterMember member = members.get(i);
            if (member.id() != i) {
                throw new IllegalArgumentException("member ids must run 0.." + (members.size() - 1)
                    + " in order; entry " + (i + 1) + " has id " + member.id());
            }
            for (int p = 0; p < ClusterMember.PORTS; p++) {
                claim(ports, member, member.basePort() + p);
            }
            claim(ports, member, member.adminPort());
        }
    }

    private static void claim(Set<String> ports, ClusterMember member, int port) {
        if (!ports.add(member.host() + ":" + port)) {
            throw new IllegalArgumentException("member " + member.id() + " uses " + member.host() + ":" + port
                + ", which another member or port of it uses too (each member takes basePort..basePort+4 and its"
                + " admin port)");
        }
    }

    public int size() {
        return members.size();
    }

    public ClusterMember get(int id) {
        return members.get(id);
    }

    /** Aeron's form: {@code id,ingress,consensus,log,catchup,archive|...}. */
    public String aeronMembers() {
        StringBuilder text = new StringBuilder();
        for (ClusterMember member : members) {
            text.append(member.id()).append(',').append(member.ingressEndpoint()).append(',')
                .append(member.consensusEndpoint()).append(',').append(member.logEndpoint()).append(',')
                .append(member.catchupEndpoint()).append(',').append(member.archiveEndpoint()).append('|');
        }
        return text.toString();
    }

    /** The ingress endpoints a cluster client is given: {@code id=host:port,...}. */
    public String ingressEndpoints() {
        StringBuilder text = new StringBuilder();
        for (ClusterMember member : members) {
            if (text.length() > 0) {
                text.append(',');
            }
            text.append(member.id()).append('=').append(member.ingressEndpoint());
        }
        return text.toString();
    }

    /** The configuration's own form (one entry per line), for messages and documentation. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (ClusterMember member : members) {
            text.append(member.id()).append(',').append(member.host()).append(',').append(member.basePort())
                .append(',').append(member.adminPort()).append(';');
        }
        return text.toString();
    }
}
