package io.cohort.config;

/** Range check shared by the records that hold a port number. */
final class Ports {

    private Ports() {
    }

    static void check(String what, int port, int lowest) {
        if (port < lowest || port > 65_535) {
            throw new IllegalArgumentException(what + " must be from " + lowest + " to 65535: " + port);
        }
    }
}
