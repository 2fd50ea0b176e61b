package io.cohort.cli.manage;

import io.cohort.cli.admin.AdminCallException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * What one member answered to a call made on all members at once.
 *
 * @param target the member
 * @param value  its answer, if the call succeeded
 * @param error  why it failed, if it did
 * @param took   how long the call took
 */
record Outcome<T>(Target target, Optional<T> value, Optional<String> error, Duration took) {

    boolean succeeded() {
        return error.isEmpty();
    }

    /** Calls every target at once and returns when all have answered or failed, in target order. */
    static <T> List<Outcome<T>> onEach(List<Target> targets, Function<Target, CompletableFuture<T>> call) {
        List<CompletableFuture<Outcome<T>>> calls = targets.stream().map(target -> {
            long start = System.nanoTime();
            CompletableFuture<T> answer;
            try {
                answer = call.apply(target);
            } catch (RuntimeException e) {
                answer = CompletableFuture.failedFuture(e);
            }
            return answer.handle((value, failure) -> {
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                return failure == null
                        ? new Outcome<>(target, Optional.ofNullable(value), Optional.<String>empty(), took)
                        : new Outcome<>(target, Optional.<T>empty(), Optional.of(AdminCallException.messageOf(failure)), took);
            });
        }).toList();
        return calls.stream().map(CompletableFuture::join).toList();
    }
}
