package io.cohort.bench.study.driver;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How the load driver loads the shop: closed loop, {@code users} virtual users, each repeating the study's
 * scenario with a think time of {@code thinkTime ± thinkSpread} (uniform) before every page.
 *
 * @param shops       the shop's base address through each balancer, e.g. {@code http://127.0.0.1:8000/jpetstore};
 *                    virtual user {@code k} uses {@code shops[k % shops.size()]}, so users spread evenly over the
 *                    emulated hosts
 * @param users       virtual users
 * @param thinkTime   mean think time before each page (the study: 300 ms)
 * @param thinkSpread half-width of the uniform think-time interval (the study: 100 ms)
 * @param accounts    benchmark accounts {@code user0..user<accounts-1>} (password {@code password}) to sign on with
 * @param pageTimeout how long one page (including its redirects) may take before it counts as an error
 * @param seed        seed of the users' random choices (account, keyword, result, rounds, think times)
 */
public record DriverSettings(List<URI> shops, int users, Duration thinkTime, Duration thinkSpread, int accounts,
        Duration pageTimeout, long seed) {

    /** The study's think time: 300 ms ± 100 ms. */
    public static final Duration STUDY_THINK_TIME = Duration.ofMillis(300);
    public static final Duration STUDY_THINK_SPREAD = Duration.ofMillis(100);

    public DriverSettings {
        shops = List.copyOf(shops);
        Objects.requireNonNull(thinkTime, "thinkTime");
        Objects.requireNonNull(thinkSpread, "thinkSpread");
        Objects.requireNonNull(pageTimeout, "pageTimeout");
        if (shops.isEmpty()) {
            throw new IllegalArgumentException("no shop address to load");
        }
        if (users < 1) {
            throw new IllegalArgumentException("users must be ≥ 1: " + users);
        }
        if (accounts < 1) {
            throw new IllegalArgumentException("accounts must be ≥ 1: " + accounts);
        }
        if (thinkSpread.compareTo(thinkTime) > 0 || thinkSpread.isNegative()) {
            throw new IllegalArgumentException("think-time spread must be between 0 and the think time: "
                    + thinkSpread + " vs " + thinkTime);
        }
        if (pageTimeout.isNegative() || pageTimeout.isZero()) {
            throw new IllegalArgumentException("page timeout must be positive: " + pageTimeout);
        }
    }

    /** The study's settings for {@code users} users on these shops. */
    public static DriverSettings study(List<URI> shops, int users, int accounts, long seed) {
        return new DriverSettings(shops, users, STUDY_THINK_TIME, STUDY_THINK_SPREAD, accounts, Duration.ofSeconds(20),
                seed);
    }
}
