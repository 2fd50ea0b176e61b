package io.cohort.balancer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Sends bytes exactly as written, for requests an HTTP client library would not send (hop-by-hop
 * and forged forwarding headers, absolute URIs, CONNECT, oversize heads), and reads the answer to
 * the end of the connection.
 */
final class RawHttp {

    record Answer(int status, String head, String body) {
    }

    private RawHttp() {
    }

    /** Sends {@code head} (lines separated by \r\n, without the blank line) and {@code body}; reads until the server closes. */
    static Answer exchange(URI server, String head, String body) throws IOException {
        try (Socket socket = new Socket(server.getHost(), server.getPort())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write((head + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    received.write(buffer, 0, n);
                }
            } catch (java.net.SocketTimeoutException e) {
                // the server keeps the connection open after answering; keep what arrived
            } catch (java.net.SocketException e) {
                // the server may reset after answering a request it refused; keep what arrived
            }
            String text = received.toString(StandardCharsets.ISO_8859_1);
            int split = text.indexOf("\r\n\r\n");
            String answerHead = split < 0 ? text : text.substring(0, split);
            String answerBody = split < 0 ? "" : text.substring(split + 4);
            int status = answerHead.length() >= 12 ? Integer.parseInt(answerHead.substring(9, 12)) : -1;
            return new Answer(status, answerHead, answerBody);
        }
    }

    /** Reads a request head up to its blank line, as a member would; false if the connection ended first. */
    static boolean readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return false;
            }
            head.append((char) b);
        }
        return true;
    }

    static Answer exchange(URI server, String head) throws IOException {
        return exchange(server, head, "");
    }

    /** Opens a connection of its own and sends {@code request} (head and body as written) on it, reading nothing. */
    static Socket send(URI server, String request) throws IOException {
        Socket socket = new Socket(server.getHost(), server.getPort());
        socket.setSoTimeout(20_000);
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return socket;
    }

    /** The first of {@code clients} that has bytes of an answer to read (waits at most 20 s). */
    static Socket firstAnswered(List<Socket> clients) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            for (Socket client : clients) {
                if (client.getInputStream().available() > 0) {
                    return client;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("none of the requests was answered within 20 s");
    }

    /** The whole answer, up to the server's close (the request asked for it). */
    static String readAll(Socket client) throws IOException {
        return new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
}
