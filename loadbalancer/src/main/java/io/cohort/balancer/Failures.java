package io.cohort.balancer;

/** What a failure of an exchange or a health check was, from its chain of causes. */
final class Failures {

    private Failures() {
    }

    /** Whether {@code failure} or one of its causes is an instance of one of {@code kinds}. */
    @SafeVarargs
    static boolean causedBy(Throwable failure, Class<? extends Throwable>... kinds) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            for (Class<? extends Throwable> kind : kinds) {
                if (kind.isInstance(t)) {
                    return true;
                }
            }
        }
        return false;
    }
}
