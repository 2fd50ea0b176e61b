package io.cohort.jpetstore.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.eclipse.jetty.ee10.webapp.MetaInfConfiguration;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.plus.jndi.Resource;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The exploded web app (src/main/webapp + target/classes) on an embedded Jetty 12 EE10 server at a free port
 * on 127.0.0.1, under /jpetstore, with the given DataSource bound where a container would bind it
 * (java:comp/env/jdbc/jpetstore). Context parameters are set through an override descriptor, as a deployer
 * would, because web.xml's own values win over parameters set in code.
 */
public final class ShopServer implements ShopHost {
    private static final Path MODULE = Path.of("").toAbsolutePath();

    private final Server server;
    private final WebAppContext app;
    private final URI base;

    private ShopServer(Server server, WebAppContext app, URI base) {
        this.server = server;
        this.app = app;
        this.base = base;
    }

    public static ShopServer start(DataSource dataSource) throws Exception {
        return start(dataSource, Map.of(), app -> { });
    }

    /**
     * @param contextParams context parameters that override web.xml's
     * @param customizer last changes to the web app before it starts (extra listeners or servlets)
     */
    public static ShopServer start(DataSource dataSource, Map<String, String> contextParams,
                                   Consumer<WebAppContext> customizer) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);

        WebAppContext app = new WebAppContext();
        app.setContextPath(CONTEXT_PATH);
        app.setBaseResourceAsPath(MODULE.resolve("src/main/webapp"));
        app.setExtraClasspath(MODULE.resolve("target/classes").toString());
        app.setAttribute(MetaInfConfiguration.CONTAINER_JAR_PATTERN, ".*/jakarta\\.servlet\\.jsp\\.jstl-[^/]*\\.jar$");
        app.setTempDirectory(MODULE.resolve("target/jetty-work").toFile());
        app.setTempDirectoryPersistent(true);
        app.setThrowUnavailableOnStartupException(true);
        if (!contextParams.isEmpty()) {
            app.addOverrideDescriptor(overrideDescriptor(contextParams).toString());
        }
        new Resource(app, "jdbc/jpetstore", dataSource);
        customizer.accept(app);
        server.setHandler(app);
        server.start();
        return new ShopServer(server, app, URI.create("http://127.0.0.1:" + connector.getLocalPort() + CONTEXT_PATH));
    }

    @Override
    public URI base() {
        return base;
    }

    public WebAppContext app() {
        return app;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    private static Path overrideDescriptor(Map<String, String> params) throws IOException {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">\n");
        params.forEach((name, value) -> xml.append("  <context-param><param-name>").append(name)
                .append("</param-name><param-value>").append(value).append("</param-value></context-param>\n"));
        xml.append("</web-app>\n");
        Path dir = Files.createDirectories(MODULE.resolve("target/test-descriptors"));
        Path file = dir.resolve("override-web-" + UUID.randomUUID() + ".xml");
        Files.writeString(file, xml, StandardCharsets.UTF_8);
        return file;
    }
}
