package io.cohort.net;

/**
 * How many connections each of Cohort's listening ports (a node's HTTP and admin ports, a balancer's proxy and admin
 * ports) lets the kernel hold until the server accepts them: its listen backlog. A Jetty connector given none asks for
 * Java's default, 50, and a burst beyond that finds the queue full: Linux then drops the new connection's SYN, so the
 * client's connect waits for retransmissions (1 s, 3 s, ...) or times out, and with
 * {@code net.ipv4.tcp_abort_on_overflow=1} it is reset. Bursts come when a balancer reconnects to a node after a
 * failover or a restart, from a load test, to a node that is still deploying its WARs (its HTTP port is bound but
 * accepts only afterwards) and to a balancer at its {@code <client-limits max-connections>}.
 *
 * <p>A fixed limit, not an attribute: the kernel caps it at {@code net.core.somaxconn} (4096 since Linux 5.4, 128
 * before), which is the knob an operator turns anyway; a waiting connection costs nothing until it is accepted.
 */
public final class AcceptQueue {

    /** Connections a listening port holds until they are accepted (the kernel may cap it lower). */
    public static final int SIZE = 1024;

    private AcceptQueue() {
    }
}
