package io.cohort.testapp;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;

/**
 * Test application listener: records in system properties (the one place a test and the application's own class
 * loader share) that the application of a version was initialized and destroyed:
 * {@code cohort.test.<version>.initialized} and {@code cohort.test.<version>.destroyed}.
 */
public class LifecycleRecorder implements ServletContextListener {

    @Override
    public void contextInitialized(ServletContextEvent event) {
        System.setProperty(property(event, "initialized"), "true");
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        System.setProperty(property(event, "destroyed"), "true");
    }

    private static String property(ServletContextEvent event, String what) {
        return "cohort.test." + event.getServletContext().getInitParameter("version") + "." + what;
    }
}
