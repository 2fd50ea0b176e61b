package io.cohort.bench.tomcat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.Hashtable;
import javax.naming.Context;
import javax.naming.Name;
import javax.naming.RefAddr;
import javax.naming.Reference;
import javax.naming.spi.ObjectFactory;
import org.apache.tomcat.util.descriptor.web.ContextResource;

/**
 * JNDI factory of the shop's {@code jdbc/jpetstore} DataSource on a Tomcat node: a HikariCP pool like the
 * one a Cohort node binds under the same name (pool of {@value #POOL_SIZE}, connections made on first
 * use), so that both systems give the shop the same database access. Tomcat calls it once per context
 * (the resource is a singleton) and closes the pool when the context stops.
 */
public final class ShopDataSourceFactory implements ObjectFactory {

    /** The JNDI name under {@code java:comp/env} that the shop looks up. */
    public static final String NAME = "jdbc/jpetstore";
    /** The pool size of a Cohort node's data source (its {@code max-pool-size} default). */
    static final int POOL_SIZE = 10;
    private static final String URL = "jdbcUrl";
    private static final String USER = "username";

    /** The {@code <Resource>} a node adds to the shop's context. */
    static ContextResource resource(TomcatNodeOptions options) {
        ContextResource resource = new ContextResource();
        resource.setName(NAME);
        resource.setType("javax.sql.DataSource");
        resource.setAuth("Container");
        resource.setSingleton(true);
        resource.setCloseMethod("close");
        resource.setProperty("factory", ShopDataSourceFactory.class.getName());
        resource.setProperty(URL, options.dbUrl());
        resource.setProperty(USER, options.dbUser());
        resource.setProperty("poolName", options.route() + ":" + NAME);
        return resource;
    }

    @Override
    public Object getObjectInstance(Object reference, Name name, Context context, Hashtable<?, ?> environment) {
        if (!(reference instanceof Reference ref)) {
            return null;
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(value(ref, URL));
        config.setUsername(value(ref, USER));
        String password = System.getenv(TomcatNodeOptions.PASSWORD_ENV);
        if (password != null) {
            config.setPassword(password);
        }
        config.setPoolName(value(ref, "poolName"));
        config.setMaximumPoolSize(POOL_SIZE);
        config.setInitializationFailTimeout(-1);
        return new HikariDataSource(config);
    }

    private static String value(Reference ref, String type) {
        RefAddr address = ref.get(type);
        if (address == null || address.getContent() == null) {
            throw new IllegalStateException("the " + NAME + " resource has no " + type);
        }
        return address.getContent().toString();
    }
}
