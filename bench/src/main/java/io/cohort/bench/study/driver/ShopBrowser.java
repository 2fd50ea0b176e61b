package io.cohort.bench.study.driver;

import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.FormRequestContent;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.util.Fields;

/**
 * One virtual user's browser: its own cookies, the anti-forgery token of the last page that carried one,
 * redirects followed like a browser (a POST answered 302/303 continues as a GET), and the study's think time
 * before every page. A page is sent at its scheduled time (previous page's end + think time); its response
 * time is measured from that scheduled time, redirects included. The page timeout covers the page from its first
 * request to the end of its last redirect. Not thread-safe: one page at a time.
 */
final class ShopBrowser {

    private static final int MAX_REDIRECTS = 5;
    private static final int MAX_PAGE_BYTES = 4 * 1024 * 1024;

    private final DriverContext context;
    private final URI shop;
    private final Random random;
    private final CookieJar cookies = new CookieJar();
    private String token = "";

    ShopBrowser(DriverContext context, URI shop, Random random) {
        this.context = context;
        this.shop = shop;
        this.random = random;
    }

    /** A new visitor: no cookies, no token (the next scenario starts a new session). */
    void forget() {
        cookies.clear();
        token = "";
    }

    CompletableFuture<ShopPage> get(String pathAndQuery) {
        return afterThinkTime("GET " + pathAndQuery,
                deadline -> send(HttpMethod.GET, resolve(pathAndQuery), null, 0, deadline));
    }

    /** Posts a form with the current anti-forgery token added. */
    CompletableFuture<ShopPage> post(String path, String... namesAndValues) {
        Fields fields = new Fields();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            fields.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        fields.add("_csrf", token);
        return afterThinkTime("POST " + path, deadline -> send(HttpMethod.POST, resolve(path), fields, 0, deadline));
    }

    private URI resolve(String pathAndQuery) {
        return URI.create(shop.toString() + pathAndQuery);
    }

    private long thinkNanos() {
        long mean = context.settings.thinkTime().toNanos();
        long spread = context.settings.thinkSpread().toNanos();
        return spread == 0 ? mean : mean - spread + (long) (random.nextDouble() * 2 * spread);
    }

    /** A page's requests, its redirects included, all to be answered before {@code deadline} ({@code System.nanoTime()}). */
    private interface Exchange {
        CompletableFuture<ShopPage> start(long deadline);
    }

    private CompletableFuture<ShopPage> afterThinkTime(String what, Exchange exchange) {
        long scheduled = System.nanoTime() + thinkNanos();
        CompletableFuture<ShopPage> page = new CompletableFuture<>();
        context.timer.schedule(() -> {
            if (context.stopping()) {
                page.completeExceptionally(ScenarioAbort.cutShort());
                return;
            }
            CompletableFuture<ShopPage> exchanged;
            try {
                exchanged = exchange.start(System.nanoTime() + context.settings.pageTimeout().toNanos());
            } catch (RuntimeException e) { // e.g. an address that does not parse: the page fails, the user goes on
                exchanged = CompletableFuture.failedFuture(e);
            }
            exchanged.whenComplete((result, failure) -> {
                long now = System.nanoTime();
                if (failure != null) {
                    Throwable cause = rootCause(failure);
                    if (cause instanceof TimeoutException || cause instanceof SocketTimeoutException) {
                        context.stats.timedOut(now, now - scheduled);
                    } else {
                        context.stats.failedWithoutResponse(now);
                    }
                    page.completeExceptionally(ScenarioAbort.failedPage("no response to " + what + ": " + rootMessage(failure)));
                    return;
                }
                boolean failed = result.status() >= 500;
                context.stats.page(now, now - scheduled, failed);
                if (failed) {
                    page.completeExceptionally(ScenarioAbort.failedPage(result.status() + " to " + what + " from " + result.uri()));
                } else {
                    page.complete(result);
                }
            });
        }, Math.max(0, scheduled - System.nanoTime()), TimeUnit.NANOSECONDS);
        return page;
    }

    private CompletableFuture<ShopPage> send(HttpMethod method, URI uri, Fields form, int redirects, long deadline) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            return CompletableFuture.failedFuture(new TimeoutException("page timeout of "
                    + context.settings.pageTimeout().toMillis() + " ms elapsed before redirect " + redirects));
        }
        Request request = context.http.newRequest(uri).method(method).followRedirects(false)
                .timeout(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)), TimeUnit.MILLISECONDS);
        String cookieHeader = cookies.header();
        if (cookieHeader != null) {
            request.headers(h -> h.put(HttpHeader.COOKIE, cookieHeader));
        }
        if (form != null) {
            request.body(new FormRequestContent(form, StandardCharsets.UTF_8));
        }
        return new CompletableResponseListener(request, MAX_PAGE_BYTES).send()
                .thenCompose(response -> received(uri, response, redirects, deadline));
    }

    private CompletableFuture<ShopPage> received(URI uri, ContentResponse response, int redirects, long deadline) {
        List<String> setCookies = response.getHeaders().getValuesList(HttpHeader.SET_COOKIE);
        cookies.accept(setCookies);
        int status = response.getStatus();
        String location = response.getHeaders().get(HttpHeader.LOCATION);
        if (status >= 300 && status < 400 && location != null) {
            if (redirects >= MAX_REDIRECTS) {
                return CompletableFuture.completedFuture(new ShopPage(599, "too many redirects", uri));
            }
            return send(HttpMethod.GET, uri.resolve(location), null, redirects + 1, deadline);
        }
        ShopPage page = new ShopPage(status, response.getContentAsString(), uri);
        page.csrfToken().ifPresent(t -> token = t);
        return CompletableFuture.completedFuture(page);
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static String rootMessage(Throwable failure) {
        Throwable cause = rootCause(failure);
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }
}
