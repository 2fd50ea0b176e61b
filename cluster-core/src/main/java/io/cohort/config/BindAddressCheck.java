package io.cohort.config;

import io.cohort.net.IpLiteral;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether a listener's {@code bind-addr} can be bound where the configuration is loaded. A file loaded to start a node
 * or balancer (or to check it on the machine it is for) is checked {@link #ON_THIS_MACHINE}: the address, or the
 * first address the name resolves to (the one a listener binds, as {@link InetAddress#getByName} gives it), must be
 * the wildcard, a loopback address, or one this machine lets a socket bind to (tried on a free port and closed at
 * once: the kernel's answer, which counts the network namespace and {@code ip_nonlocal_bind}, e.g. a standby's
 * virtual IP). Else the start would fail at the bind, far from the attribute; this way the error names the file, line
 * and column. A configuration parsed from a stream (tests, tools reading a file meant for another machine) is
 * {@link #NOT_CHECKED}.
 */
enum BindAddressCheck {
    ON_THIS_MACHINE,
    NOT_CHECKED;

    /** At most this many of the machine's addresses are named in an error. */
    private static final int ADDRESSES_NAMED = 6;
    /** JGroups' own words for "an address of this machine of that kind", which a group's bind-addr may use (any case). */
    private static final Set<String> GROUP_SCOPES = Set.of("global", "site_local", "link_local", "loopback", "non_loopback",
            "use_localhost", "use-localhost");
    /** JGroups' prefixes that pick an address by interface, host or address pattern, or by a class of one's own. */
    private static final List<String> GROUP_PICKERS = List.of("match-interface:", "match-host:", "match-address:", "custom:");

    /**
     * Checks the address of a listener Jetty binds (node, admin endpoint, balancer).
     *
     * @param value the attribute's value, or null when it is not written (then its default applies, which is loopback)
     * @throws ConfigException at the attribute when this check applies and the address cannot be bound here
     */
    void check(SourceElement at, String attribute, String value) throws ConfigException {
        if (this == NOT_CHECKED || value == null || !at.written(attribute)) {
            return;
        }
        String written = value.trim();
        InetAddress address;
        try {
            address = InetAddress.getByName(written);
        } catch (UnknownHostException | SecurityException e) {
            throw at.attributeError(attribute, attribute + "=\"" + value + "\" on " + at.tag() + " does not resolve on this machine",
                    "an address of this machine, or a host name that resolves to one");
        }
        if (address.isAnyLocalAddress() || canBind(address)) { // loopback too: ::1 cannot be bound on an IPv4-only stack
            return;
        }
        throw at.attributeError(attribute, attribute + "=\"" + value + "\" on " + at.tag() + " is "
                + (IpLiteral.parse(written) != null ? "" : address.getHostAddress() + ", ") + "not an address of this machine",
                "one of " + machineAddresses() + ", or 0.0.0.0 for every one");
    }

    /**
     * Checks the address of a replication group's transport, which JGroups binds: as {@link #check}, but JGroups' own
     * address words ({@code SITE_LOCAL}, {@code match-interface:eth0}, ...) are left to JGroups.
     */
    void checkGroup(SourceElement at, String attribute, String value) throws ConfigException {
        if (value != null && isGroupAddressWord(value.trim())) {
            return;
        }
        check(at, attribute, value);
    }

    private static boolean isGroupAddressWord(String value) {
        // JGroups reads the scope words in any case, the pickers' prefixes only as written here
        return GROUP_SCOPES.contains(value.toLowerCase(Locale.ROOT)) || GROUP_PICKERS.stream().anyMatch(value::startsWith);
    }

    private static boolean canBind(InetAddress address) {
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(address, 0));
            return true;
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    private static String machineAddresses() {
        List<String> addresses = new ArrayList<>();
        try {
            for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress address : Collections.list(network.getInetAddresses())) {
                    if (!address.isLinkLocalAddress()) {
                        String text = address.getHostAddress();
                        int scope = text.indexOf('%'); // an IPv6 address's interface, which a bind-addr does not name
                        addresses.add(scope < 0 ? text : text.substring(0, scope));
                    }
                }
            }
        } catch (SocketException e) {
            return "this machine's addresses";
        }
        if (addresses.isEmpty()) {
            return "this machine's addresses";
        }
        return addresses.size() <= ADDRESSES_NAMED ? String.join(", ", addresses)
                : String.join(", ", addresses.subList(0, ADDRESSES_NAMED)) + ", …";
    }
}
