package io.cohort.testapp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Builds small standard WARs for tests: a servlet, a JSP using JSTL, a session servlet, and no
 * container-specific files. The servlet classes and the session value class {@link CartItem} are
 * copied from the test class path into {@code WEB-INF/classes}.
 */
public final class TestWars {

    private static final List<Class<?>> CLASSES = List.of(VersionServlet.class, SlowServlet.class, SessionServlet.class,
            LoaderServlet.class, ClientServlet.class, CartItem.class, LifecycleRecorder.class, StartupFailureServlet.class, GatedStartListener.class,
            SessionEndRecorder.class);

    private TestWars() {
    }

    /**
     * Writes a WAR to {@code target} atomically (through a temporary file in the same directory), as
     * an operator copying a file into {@code webapps/} with {@code mv} would.
     */
    public static Path write(Path target, String version, boolean distributable) throws IOException {
        return write(target, version, distributable, false);
    }

    /**
     * {@link #write(Path, String, boolean)}, and with {@code failsToStart} a WAR whose servlet loaded at start
     * throws in {@code init}, so the application cannot start; its {@link LifecycleRecorder} records that it was
     * initialized, and destroyed if it is stopped.
     */
    public static Path write(Path target, String version, boolean distributable, boolean failsToStart) throws IOException {
        return write(target, version, distributable, failsToStart ? Start.FAILS : Start.NORMAL);
    }

    /**
     * {@link #write(Path, String, boolean)}, a WAR whose start waits for the test ({@link GatedStartListener}: it sets
     * {@code cohort.test.<version>.starting} and goes on once {@code cohort.test.<version>.proceed} is set).
     */
    public static Path writeGated(Path target, String version) throws IOException {
        return write(target, version, true, Start.GATED);
    }

    private enum Start { NORMAL, FAILS, GATED }

    private static Path write(Path target, String version, boolean distributable, Start start) throws IOException {
        Path temp = Files.createTempFile(target.getParent(), ".build-", ".tmp");
        try (OutputStream file = Files.newOutputStream(temp); ZipOutputStream war = new ZipOutputStream(file)) {
            entry(war, "WEB-INF/web.xml", webXml(version, distributable, start));
            entry(war, "index.jsp", """
                    <%@ page contentType="text/plain" %><%@ taglib prefix="c" uri="jakarta.tags.core" %>\
                    <c:forEach var="i" begin="1" end="3">jsp-${i} </c:forEach>version <c:out value="${initParam.version}"/>\
                    ${notSetInAnyScope}""");
            for (Class<?> servlet : CLASSES) {
                String resource = servlet.getName().replace('.', '/') + ".class";
                try (InputStream bytes = servlet.getClassLoader().getResourceAsStream(resource)) {
                    war.putNextEntry(new ZipEntry("WEB-INF/classes/" + resource));
                    bytes.transferTo(war);
                    war.closeEntry();
                }
            }
        }
        return Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void entry(ZipOutputStream war, String name, String text) throws IOException {
        war.putNextEntry(new ZipEntry(name));
        war.write(text.getBytes(StandardCharsets.UTF_8));
        war.closeEntry();
    }

    private static String webXml(String version, boolean distributable, Start start) {
        String failure = switch (start) {
            case NORMAL -> "";
            case FAILS -> """
                  <listener><listener-class>%s</listener-class></listener>
                  <servlet><servlet-name>failing</servlet-name><servlet-class>%s</servlet-class>
                    <load-on-startup>1</load-on-startup></servlet>
                """.formatted(LifecycleRecorder.class.getName(), StartupFailureServlet.class.getName());
            case GATED -> """
                  <listener><listener-class>%s</listener-class></listener>
                """.formatted(GatedStartListener.class.getName());
        };
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
                  %s
                  <context-param><param-name>version</param-name><param-value>%s</param-value></context-param>
                  <listener><listener-class>%s</listener-class></listener>
                  <servlet><servlet-name>version</servlet-name><servlet-class>%s</servlet-class></servlet>
                  <servlet-mapping><servlet-name>version</servlet-name><url-pattern>/version</url-pattern></servlet-mapping>
                  <servlet><servlet-name>slow</servlet-name><servlet-class>%s</servlet-class></servlet>
                  <servlet-mapping><servlet-name>slow</servlet-name><url-pattern>/slow</url-pattern></servlet-mapping>
                  <servlet><servlet-name>session</servlet-name><servlet-class>%s</servlet-class></servlet>
                  <servlet-mapping><servlet-name>session</servlet-name><url-pattern>/session</url-pattern></servlet-mapping>
                  <servlet><servlet-name>loader</servlet-name><servlet-class>%s</servlet-class></servlet>
                  <servlet-mapping><servlet-name>loader</servlet-name><url-pattern>/loader</url-pattern></servlet-mapping>
                  <servlet><servlet-name>client</servlet-name><servlet-class>%s</servlet-class></servlet>
                  <servlet-mapping><servlet-name>client</servlet-name><url-pattern>/client</url-pattern></servlet-mapping>
                %s</web-app>
                """.formatted(distributable ? "<distributable/>" : "", version, SessionEndRecorder.class.getName(),
                VersionServlet.class.getName(),
                SlowServlet.class.getName(), SessionServlet.class.getName(), LoaderServlet.class.getName(),
                ClientServlet.class.getName(), failure);
    }
}
