package io.cohort.net;

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
import java.util.Map;
import java.util.TreeMap;

/**
 * An HTTP/1.1 upload written by hand on a plain socket, so that a test decides when each part of the body is sent and
 * when the answer is read (Java's HttpClient decides both itself). Not thread-safe.
 */
public final class RawHttpUpload implements AutoCloseable {

    /**
     * An answer as it came: status, headers (names in lower case), the head as text (the status line and each header
     * line in lower case, joined by CRLF) and body.
     */
    public record Answer(int status, Map<String, String> headers, String head, String body) {
    }

    private static final int CHUNK = 64 * 1024;
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final boolean chunked;

    /**
     * Connects and sends the request head: {@code PUT path}, the given extra header lines, and either
     * {@code Content-Length: length} or, with {@code length} negative, {@code Transfer-Encoding: chunked}.
     */
    public static RawHttpUpload start(URI server, String path, long length, String... headerLines) throws IOException {
        return start(server, path, server.getAuthority(), length, headerLines);
    }

    /** As {@link #start(URI, String, long, String...)} with the request target and {@code Host} of the test's choosing. */
    public static RawHttpUpload start(URI server, String target, String host, long length, String... headerLines)
            throws IOException {
        Socket socket = new Socket(server.getHost(), server.getPort());
        socket.setSoTimeout(10_000);
        StringBuilder head = new StringBuilder("PUT " + target + " HTTP/1.1\r\nHost: " + host + "\r\n");
        for (String line : headerLines) {
            head.append(line).append("\r\n");
        }
        head.append(length < 0 ? "Transfer-Encoding: chunked" : "Content-Length: " + length).append("\r\n\r\n");
        RawHttpUpload upload = new RawHttpUpload(socket, length < 0);
        upload.out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        upload.out.flush();
        return upload;
    }

    private RawHttpUpload(Socket socket, boolean chunked) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
        this.chunked = chunked;
    }

    /** Sends {@code body[from, to)} in pieces of 64 KiB (as chunks when chunked). */
    public void send(byte[] body, int from, int to) throws IOException {
        for (int at = from; at < to; at += CHUNK) {
            int length = Math.min(CHUNK, to - at);
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
    public void end() throws IOException {
        if (chunked) {
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
    }

    /** Waits until the first bytes of an answer have arrived, without reading them; fails after {@code timeout}. */
    public void awaitAnswer(Duration timeout) throws IOException, InterruptedException {
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
    public Answer sendAllThenRead(byte[] body, int sentBeforeAnswer) throws IOException, InterruptedException {
        send(body, 0, sentBeforeAnswer);
        awaitAnswer(Duration.ofSeconds(10));
        Thread.sleep(1000); // no event tells a client that the server has closed; Jetty closes as the request completes
        assertThatNoException().as("sending the rest of the body after the answer came").isThrownBy(() -> {
            send(body, sentBeforeAnswer, body.length);
            end();
        });
        return readAnswer();
    }

    /** Reads an answer whose body has a Content-Length. */
    public Answer readAnswer() throws IOException {
        String status = line();
        Map<String, String> headers = new TreeMap<>();
        StringBuilder head = new StringBuilder(status);
        for (String header = line(); !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
            head.append("\r\n").append(header.toLowerCase(Locale.ROOT));
        }
        byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
        return new Answer(Integer.parseInt(status.split(" ")[1]), headers, head.toString(),
                new String(body, StandardCharsets.UTF_8));
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
