package io.cohort.config;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Whether a listener's {@code bind-addr} can be bound where the configuration is loaded. A file loaded to start a node
 * or balancer (or to check it on the machine it is for) is checked {@link #ON_THIS_MACHINE}: the address, or the
 * first address the name resolves to (the one a listener binds, as {@link InetAddress#getByName} gives it), must be
 * the wildcard, a loopback address or an address of one of this machine's interfaces. Else the start would fail at
 * the bind, far from the attribute; this way the error names the file, line and column. A configuration parsed from a
 * stream (tests, tools reading a file meant for another machine) is {@link #NOT_CHECKED}.
 */
enum BindAddressCheck {
    ON_THIS_MACHINE,
    NOT_CHECKED;

    /** At most this many of the machine's addresses are named in an error. */
    private static final int ADDRESSES_NAMED = 6;

    /**
     * @param value the attribute's value, or null when it is not written (then its default applies, which is loopback)
     * @throws ConfigException at the attribute when this check applies and the address cannot be bound here
     */
    void check(SourceElement at, String attribute, String value) throws ConfigException {
        if (this == NOT_CHECKED || value == null || !at.written(attribute)) {
            return;
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(value.trim());
        } catch (UnknownHostException | SecurityException e) {
            throw at.attributeError(attribute, attribute + "=\"" + value + "\" on " + at.tag() + " does not resolve on this machine",
                    "an address of this machine, or a host name that resolves to one");
        }
        if (address.isAnyLocalAddress() || address.isLoopbackAddress() || isInterfaceAddress(address)) {
            return;
        }
        throw at.attributeError(attribute, attribute + "=\"" + value + "\" on " + at.tag() + " is "
                + (value.trim().equals(address.getHostAddress()) ? "" : address.getHostAddress() + ", ")
                + "not an address of this machine", "one of " + machineAddresses() + ", or 0.0.0.0 for every one");
    }

    private static boolean isInterfaceAddress(InetAddress address) {
        try {
            return NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return true; // the interfaces cannot be listed: let the bind decide
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
