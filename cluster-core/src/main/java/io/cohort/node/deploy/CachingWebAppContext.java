package io.cohort.node.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.eclipse.jetty.ee.webapp.WebAppClassLoader;
import org.eclipse.jetty.ee10.webapp.WebAppContext;

/**
 * Jetty's web application context with an {@link ApplicationClassLoader} (Jetty's caching loader): the
 * application's class loader remembers the classes and resources it looked up, including the names it
 * could not find, and answers a remembered miss without filling in a stack trace.
 *
 * <p>JSP pages need it: for every EL identifier that no scope holds (a session attribute not set yet, say),
 * the JSP engine's EL resolver asks the class loader whether the name is a class, and each miss walks the
 * node's whole class path and the application's jars. A node deploys a staged, immutable copy of the WAR,
 * so a name that was not found stays not found until the application is redeployed, which makes a new
 * loader. Jetty closes the loader when the context stops, as it does its own.
 */
final class CachingWebAppContext extends WebAppContext {

    @Override
    protected ClassLoader configureClassLoader(ClassLoader loader) {
        if (loader instanceof WebAppClassLoader) {
            return loader;
        }
        try {
            return new ApplicationClassLoader(loader, this);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the class loader of " + getDisplayName(), e);
        }
    }
}
