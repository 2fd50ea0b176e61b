package io.cohort.bench.balancer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Writes {@code hello.war}: {@link HelloServlet} at {@code /hi}, nothing else. */
final class HelloWar {

    static final String PATH = "/hello/hi";

    private HelloWar() {
    }

    static Path write(Path webapps) throws IOException {
        Files.createDirectories(webapps);
        Path war = webapps.resolve("hello.war");
        try (OutputStream file = Files.newOutputStream(war); ZipOutputStream zip = new ZipOutputStream(file)) {
            zip.putNextEntry(new ZipEntry("WEB-INF/web.xml"));
            zip.write("""
                    <?xml version="1.0" encoding="UTF-8"?>
                    <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
                      <servlet><servlet-name>hello</servlet-name><servlet-class>%s</servlet-class></servlet>
                      <servlet-mapping><servlet-name>hello</servlet-name><url-pattern>/hi</url-pattern></servlet-mapping>
                    </web-app>
                    """.formatted(HelloServlet.class.getName()).getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
            String resource = HelloServlet.class.getName().replace('.', '/') + ".class";
            zip.putNextEntry(new ZipEntry("WEB-INF/classes/" + resource));
            try (InputStream bytes = HelloServlet.class.getClassLoader().getResourceAsStream(resource)) {
                bytes.transferTo(zip);
            }
            zip.closeEntry();
        }
        return war;
    }
}
