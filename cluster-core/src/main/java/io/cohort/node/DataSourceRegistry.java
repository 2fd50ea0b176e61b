package io.cohort.node;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.cohort.config.DataSourceConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.jetty.plus.jndi.Resource;
import org.eclipse.jetty.server.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's JDBC connection pools (HikariCP), one per configured {@code <datasource>}, bound in
 * JNDI at server scope so every web application that declares a matching {@code <resource-ref>}
 * finds it under {@code java:comp/env/<name>}. Pools do not fail the node's start when the database
 * is not reachable yet; connections are made when first asked for.
 */
public final class DataSourceRegistry implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DataSourceRegistry.class);

    private final Map<String, HikariDataSource> pools = new LinkedHashMap<>();

    public DataSourceRegistry(Server server, String nodeName, List<DataSourceConfig> configs) throws NamingException {
        for (DataSourceConfig config : configs) {
            HikariDataSource pool = new HikariDataSource(hikari(nodeName, config));
            pools.put(config.name(), pool);
            new Resource(server, config.name(), pool);
            LOG.info("Data source {} -> {} (pool of {})", config.name(), redact(config.url()), config.maxPoolSize());
        }
    }

    private static HikariConfig hikari(String nodeName, DataSourceConfig config) {
        HikariConfig hikari = new HikariConfig();
        hikari.setPoolName(nodeName + ":" + config.name());
        hikari.setJdbcUrl(config.url());
        config.user().ifPresent(hikari::setUsername);
        config.password().ifPresent(secret -> hikari.setPassword(secret.reveal()));
        hikari.setMaximumPoolSize(config.maxPoolSize());
        hikari.setConnectionTimeout(config.connectionTimeout().toMillis());
        hikari.setInitializationFailTimeout(-1);
        return hikari;
    }

    /** The pool configured under this name, e.g. for the database session store. */
    public Optional<DataSource> dataSource(String name) {
        return Optional.ofNullable(pools.get(name));
    }

    /** JDBC URLs can carry passwords as parameters; never log them. */
    static String redact(String url) {
        return url.replaceAll("(?i)(password|pwd)=[^;&]*", "$1=****");
    }

    @Override
    public void close() {
        pools.values().forEach(HikariDataSource::close);
        pools.clear();
    }
}
