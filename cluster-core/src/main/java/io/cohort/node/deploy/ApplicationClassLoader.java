package io.cohort.node.deploy;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.ee.webapp.WebAppClassLoader;
import org.eclipse.jetty.ee10.webapp.CachingWebAppClassLoader;

/**
 * An application's class loader: Jetty's {@link CachingWebAppClassLoader} (class and resource
 * lookups are remembered, misses included), whose repeated misses are also cheap to answer.
 *
 * <p>Jetty answers a remembered miss with a new {@link ClassNotFoundException}, and filling in that
 * exception's stack trace costs as much as the lookup it saved: JSP EL asks for a class on every
 * render for each identifier no scope holds, from deep in the request's stack (measured: about a tenth
 * of a loaded shop node's CPU). Here the second and later misses of a name throw an exception
 * without a stack trace; the first miss still carries the full one, for whoever debugs it. Callers
 * that probe for classes (EL, service loaders, {@code Class.forName} in a try) only look at the
 * exception's type.
 *
 * <p>The loader of a deployed application never gains classes (a node deploys an immutable staged
 * copy of the WAR; a redeploy creates a new loader), so a name once missing stays missing. At most
 * {@value #MAX_REMEMBERED_MISSES} names are remembered; beyond that, misses take Jetty's path.
 */
final class ApplicationClassLoader extends CachingWebAppClassLoader {

    static final int MAX_REMEMBERED_MISSES = 10_000;

    private final Set<String> missing = ConcurrentHashMap.newKeySet();

    ApplicationClassLoader(ClassLoader parent, WebAppClassLoader.Context context) throws IOException {
        super(parent, context);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (missing.contains(name)) {
            throw new RememberedMiss(name);
        }
        try {
            return super.loadClass(name, resolve);
        } catch (ClassNotFoundException e) {
            if (missing.size() < MAX_REMEMBERED_MISSES) {
                missing.add(name);
            }
            throw e;
        }
    }

    @Override
    public void clearCache() {
        missing.clear();
        super.clearCache();
    }

    /** A miss answered from memory: no stack trace, since nothing new happened to trace. */
    static final class RememberedMiss extends ClassNotFoundException {

        private static final long serialVersionUID = 1L;

        RememberedMiss(String name) {
            super(name + " (not found before; remembered by the application's class loader)");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
