package io.cohort.net;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * IP address literals read without any resolver: dotted-quad IPv4 ({@code 192.0.2.1}, four decimal octets of at most
 * three digits and at most 255) and IPv6 in the text forms of RFC 4291 section 2.2 ({@code 2001:db8::1},
 * {@code ::ffff:192.0.2.1}), without brackets, ports or zone ids. Anything else is no literal, and is never looked up:
 * {@link InetAddress#getByName} would ask DNS for {@code 999.1.2.3}, blocking the calling thread (a selector thread,
 * on the balancer's request path). Stateless.
 */
public final class IpLiteral {

    private static final int IPV4_BYTES = 4;
    private static final int IPV6_GROUPS = 8;
    /** The longest IPv6 text: eight groups of four, or six and a dotted quad. */
    private static final int MAX_IPV6_LENGTH = 45;

    private IpLiteral() {
    }

    /** The address {@code text} is a literal of, or null if it is none. Never blocks. */
    public static InetAddress parse(String text) {
        byte[] bytes = text.indexOf(':') >= 0 ? ipv6(text) : ipv4(text);
        if (bytes == null) {
            return null;
        }
        try {
            return InetAddress.getByAddress(bytes); // from raw bytes: no lookup (an IPv4-mapped IPv6 gives IPv4)
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException("an address of " + bytes.length + " bytes", impossible);
        }
    }

    /** The four bytes of a dotted quad, or null. */
    private static byte[] ipv4(String text) {
        String[] octets = text.split("\\.", -1);
        if (octets.length != IPV4_BYTES) {
            return null;
        }
        byte[] bytes = new byte[IPV4_BYTES];
        for (int i = 0; i < IPV4_BYTES; i++) {
            int value = decimal(octets[i]);
            if (value < 0 || value > 255) {
                return null;
            }
            bytes[i] = (byte) value;
        }
        return bytes;
    }

    /** One to three ASCII digits as a number, or -1. */
    private static int decimal(String digits) {
        if (digits.isEmpty() || digits.length() > 3) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** The sixteen bytes of an IPv6 text, or null: groups left and right of at most one {@code ::}. */
    private static byte[] ipv6(String text) {
        if (text.length() > MAX_IPV6_LENGTH) {
            return null;
        }
        int gap = text.indexOf("::");
        if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        int[] left = groups(gap < 0 ? text : text.substring(0, gap), gap >= 0, gap < 0);
        int[] right = gap < 0 ? new int[0] : groups(text.substring(gap + 2), true, true);
        if (left == null || right == null) {
            return null;
        }
        int given = left.length + right.length;
        if (gap < 0 ? given != IPV6_GROUPS : given >= IPV6_GROUPS) {
            return null; // without "::" all eight groups; with it, "::" stands for at least one
        }
        byte[] bytes = new byte[2 * IPV6_GROUPS];
        put(bytes, 0, left);
        put(bytes, IPV6_GROUPS - right.length, right);
        return bytes;
    }

    /**
     * The 16-bit groups of one side of {@code ::} (or of a whole address without it), or null. When {@code endsAddress},
     * the last group may be a dotted quad, which is two groups; an empty side has no group when {@code mayBeEmpty}.
     */
    private static int[] groups(String side, boolean mayBeEmpty, boolean endsAddress) {
        if (side.isEmpty()) {
            return mayBeEmpty ? new int[0] : null;
        }
        String[] texts = side.split(":", -1);
        String last = texts[texts.length - 1];
        boolean quad = endsAddress && last.indexOf('.') >= 0;
        int[] groups = new int[texts.length + (quad ? 1 : 0)];
        for (int i = 0; i < texts.length - (quad ? 1 : 0); i++) {
            groups[i] = hex(texts[i]);
            if (groups[i] < 0) {
                return null;
            }
        }
        if (quad) {
            byte[] ipv4 = ipv4(last);
            if (ipv4 == null) {
                return null;
            }
            groups[texts.length - 1] = (ipv4[0] & 0xff) << 8 | ipv4[1] & 0xff;
            groups[texts.length] = (ipv4[2] & 0xff) << 8 | ipv4[3] & 0xff;
        }
        return groups;
    }

    /** One to four hex digits as a number, or -1. */
    private static int hex(String digits) {
        if (digits.isEmpty() || digits.length() > 4) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < digits.length(); i++) {
            int digit = Character.digit(digits.charAt(i), 16);
            if (digit < 0 || digits.charAt(i) > 'f') {
                return -1; // Character.digit also takes non-ASCII digits
            }
            value = value << 4 | digit;
        }
        return value;
    }

    private static void put(byte[] bytes, int group, int[] groups) {
        for (int i = 0; i < groups.length; i++) {
            bytes[2 * (group + i)] = (byte) (groups[i] >> 8);
            bytes[2 * (group + i) + 1] = (byte) groups[i];
        }
    }
}
