package io.cohort.testapp;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;

/**
 * Test application listener that holds the application's start until the test lets it go: it sets the system property
 * {@code cohort.test.<version>.starting}, then waits (at most 30 s) for {@code cohort.test.<version>.proceed}.
 */
public class GatedStartListener implements ServletContextListener {

    @Override
    public void contextInitialized(ServletContextEvent event) {
        String version = event.getServletContext().getInitParameter("version");
        System.setProperty("cohort.test." + version + ".starting", "true");
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.getProperty("cohort.test." + version + ".proceed") == null && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
