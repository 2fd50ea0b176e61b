package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThatNoException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * An upload written by hand on a plain socket, so that a test decides when each part of the body is sent and when the
 * answer is read (Java's HttpClient decides both itself); cluster-core's {@code RawHttpUpload} for the balancer (its
 * test jar would bring cluster-core's {@code logback-test.xml} along). Not thread-safe.
 */
final class RawUpload implements AutoCloseable {

    private static final int PIECE = 64 * 1024;
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final boolean chunked;

    private RawUpload(Socket socket, boolean chunked) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
        this.chunked = chunked;
    }

    /** Connects and sends {@code PUT path} with {@code Content-Length: length}, or chunked when {@code length} is negative. */
    static RawUpload start(URI server, String path, long length) throws IOException {
        return start(server, path, server.getAuthority(), length);
    }

    /** As {@link #start(URI, String, long)} with the request target and {@code Host} header of the test's choosing. */
    static RawUpload start(URI server, String target, String host, long length) throws IOException {
        Socket socket = new Socket(server.getHost(), server.getPort());
        socket.setSoTimeout(10_000);
        RawUpload upload = new RawUpload(socket, length < 0);
        String head = "PUT " + target + " HTTP/1.1\r\nHost: " + host + "\r\n"
                + (length < 0 ? "Transfer-Encoding: chunked" : "Content-Length: " + length) + "\r\n\r\n";
        upload.out.write(head.getBytes(StandardCharsets.US_ASCII));
        upload.out.flush();
        return upload;
    }

    /** Sends {@code body[from, to)} in pieces of 64 KiB (as chunks when chunked). */
    void send(byte[] body, int from, int to) throws IOException {
        for (int at = from; at < to; at += PIECE) {
            int length = Math.min(PIECE, to - at);
            if (chunked) {
                out.write((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            }
            out.write(body, at, length);
            if (chunked) {
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.flush();
        }
    }

    /** Ends a chunked body; nothing to do for a declared length. */
    void end() throws IOException {
        if (chunked) {
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
    }

    /** Waits until the first bytes of an answer have arrived, without reading them; fails after {@code timeout}. */
    void awaitAnswer(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (in.available() == 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no answer within " + timeout);
            }
            Thread.sleep(10);
        }
    }

    /**
     * Sends {@code body} all before reading the answer, as Java's HttpClient and many scripts do, except that it waits
     * for the answer after {@code sentBeforeAnswer} bytes and then a second more, so that a server that closes the
     * connection once it has answered has certainly closed it before the rest is sent. Fails the test when sending the
     * rest fails (a server that closed with the body unread makes its kernel reset the connection: "Broken pipe").
     */
    RawHttp.Answer sendAllThenRead(byte[] body, int sentBeforeAnswer) throws IOException, InterruptedException {
        send(body, 0, sentBeforeAnswer);
        awaitAnswer(Duration.ofSeconds(10));
        Thread.sleep(1000); // no event tells a client that the server has closed; Jetty closes as the request completes
        assertThatNoException().as("sending the rest of the body after the answer came").isThrownBy(() -> {
            send(body, sentBeforeAnswer, body.length);
            end();
        });
        return readAnswer();
    }

    /** Reads an answer whose body has a Content-Length; its head with header names in lower case. */
    RawHttp.Answer readAnswer() throws IOException {
        String status = line();
        StringBuilder head = new StringBuilder(status);
        int length = 0;
        for (String header = line(); !header.isEmpty(); header = line()) {
            String lower = header.toLowerCase(Locale.ROOT);
            head.append("\r\n").append(lower);
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(lower.substring("content-length:".length()).trim());
            }
        }
        String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        return new RawHttp.Answer(Integer.parseInt(status.split(" ")[1]), head.toString(), body);
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("the connection ended inside the answer's head: " + line);
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
