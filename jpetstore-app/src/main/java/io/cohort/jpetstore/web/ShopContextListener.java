package io.cohort.jpetstore.web;

import io.cohort.jpetstore.data.DataSetChoice;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.jsp.JspFactory;
import javax.naming.InitialContext;
import javax.sql.DataSource;

/**
 * Wires the shop at deployment: reads the data-set settings (failing the deployment if they are wrong),
 * prepares the lazy {@link ShopBootstrap}, and teaches JSP EL to read records.
 *
 * <p>Settings are looked up first as system properties, then as context parameters of web.xml, so one node
 * can be switched to the benchmark data set with {@code -Djpetstore.dataset=benchmark} without touching the WAR.
 */
public final class ShopContextListener implements ServletContextListener {
    /** Where the container provides the shop's database (declared as a resource-ref in web.xml). */
    public static final String DATASOURCE_JNDI_NAME = "java:comp/env/jdbc/jpetstore";

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        DataSetChoice choice = DataSetChoice.from(name -> {
            String value = System.getProperty(name);
            return value != null ? value : context.getInitParameter(name);
        });
        context.setAttribute(ShopBootstrap.CONTEXT_ATTRIBUTE, new ShopBootstrap(
                () -> (DataSource) new InitialContext().lookup(DATASOURCE_JNDI_NAME), choice));
        JspFactory jsp = JspFactory.getDefaultFactory();
        if (jsp == null) {
            throw new IllegalStateException("no JSP engine: JPetStore's pages are JSPs");
        }
        jsp.getJspApplicationContext(context).addELResolver(new RecordELResolver());
        context.log("JPetStore deployed; data set on first use: " + choice);
    }
}
