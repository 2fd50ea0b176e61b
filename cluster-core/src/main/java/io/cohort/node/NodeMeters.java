package io.cohort.node;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.eclipse.jetty.server.handler.StatisticsHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/** Registers the HTTP side of the node (requests, responses, threads) as meters. */
final class NodeMeters {

    private NodeMeters() {
    }

    static void bind(MeterRegistry registry, QueuedThreadPool threads, StatisticsHandler statistics) {
        Gauge.builder("cohort.http.threads.busy", threads, QueuedThreadPool::getBusyThreads)
                .description("request threads in use").register(registry);
        Gauge.builder("cohort.http.threads.max", threads, QueuedThreadPool::getMaxThreads)
                .description("size of the request thread pool").register(registry);
        Gauge.builder("cohort.http.requests.active", statistics, StatisticsHandler::getRequestsActive)
                .description("requests being handled now").register(registry);
        FunctionCounter.builder("cohort.http.requests", statistics, StatisticsHandler::getRequestTotal)
                .description("requests handled by applications").register(registry);
        for (int klass = 1; klass <= 5; klass++) {
            int k = klass;
            FunctionCounter.builder("cohort.http.responses", statistics, s -> responses(s, k))
                    .tag("status", k + "xx").description("responses by status class").register(registry);
        }
        FunctionCounter.builder("cohort.http.request.time.total", statistics,
                s -> s.getRequestTimeTotal() / 1e9).baseUnit("seconds")
                .description("total time spent handling requests").register(registry);
    }

    private static double responses(StatisticsHandler s, int statusClass) {
        return switch (statusClass) {
            case 1 -> s.getResponses1xx();
            case 2 -> s.getResponses2xx();
            case 3 -> s.getResponses3xx();
            case 4 -> s.getResponses4xx();
            default -> s.getResponses5xx();
        };
    }
}
