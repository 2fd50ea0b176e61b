package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.balancer.Failures.ConnectFailure;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.channels.AsynchronousCloseException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** What a failed attempt says about its member's reachability. */
class FailuresTest {

    @Test
    void aConnectionThatCouldNotBeMadeTakesTheMemberDownAtOnce() {
        assertThat(Failures.connectFailure(false, new ConnectException("Connection refused"), true))
                .isEqualTo(ConnectFailure.MEMBER_UNREACHABLE);
        assertThat(Failures.connectFailure(false, new IOException(new NoRouteToHostException("No route to host")), true))
                .isEqualTo(ConnectFailure.MEMBER_UNREACHABLE);
        assertThat(Failures.connectFailure(false, new SocketTimeoutException("Connect Timeout"), true))
                .isEqualTo(ConnectFailure.MEMBER_UNREACHABLE);
    }

    @Test
    void anotherIoFailureBeforeAnyConnectionCountsAsAFailedCheck() {
        // ENETUNREACH, EHOSTDOWN, but also the balancer's own EMFILE: the JDK reports all as a plain SocketException
        assertThat(Failures.connectFailure(false, new SocketException("Network is unreachable"), true))
                .isEqualTo(ConnectFailure.UNCERTAIN);
        assertThat(Failures.connectFailure(false, new SocketException("Too many open files"), true))
                .isEqualTo(ConnectFailure.UNCERTAIN);
    }

    @Test
    void theBalancersOwnFailuresSayNothingAboutTheMember() {
        assertThat(Failures.connectFailure(false, new AsynchronousCloseException(), true))
                .as("queued requests of a stopping client").isEqualTo(ConnectFailure.NONE);
        assertThat(Failures.connectFailure(false, new ConnectException("Connection refused"), false))
                .as("any failure while the client stops").isEqualTo(ConnectFailure.NONE);
        assertThat(Failures.connectFailure(false, new BindException("Cannot assign requested address"), true))
                .as("no local port left").isEqualTo(ConnectFailure.NONE);
        assertThat(Failures.connectFailure(false, new TimeoutException("Total timeout"), true)).isEqualTo(ConnectFailure.NONE);
        assertThat(Failures.connectFailure(false, new RejectedExecutionException("Max requests queued"), true))
                .isEqualTo(ConnectFailure.NONE);
    }

    @Test
    void aFailureOnAConnectionIsNotAFailedConnect() {
        assertThat(Failures.connectFailure(true, new ConnectException("Connection reset"), true)).isEqualTo(ConnectFailure.NONE);
    }
}
