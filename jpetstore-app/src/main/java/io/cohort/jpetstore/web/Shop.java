package io.cohort.jpetstore.web;

import io.cohort.jpetstore.data.AccountDao;
import io.cohort.jpetstore.data.CatalogDao;
import io.cohort.jpetstore.data.OrderDao;
import io.cohort.jpetstore.data.ProductSearch;
import io.cohort.jpetstore.model.Category;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The shop's data access, ready to use: {@link ShopReadyFilter} puts it on every request it lets through.
 *
 * @param categories read once at start-up for the navigation bar; the shop never changes its categories
 */
public record Shop(CatalogDao catalog, ProductSearch search, AccountDao accounts, OrderDao orders,
                   List<Category> categories) {
    static final String REQUEST_ATTRIBUTE = Shop.class.getName();

    public Shop {
        categories = List.copyOf(categories);
    }

    static Shop over(DataSource dataSource) {
        CatalogDao catalog = new CatalogDao(dataSource);
        return new Shop(catalog, new ProductSearch(dataSource), new AccountDao(dataSource), new OrderDao(dataSource),
                catalog.categories());
    }

    /** The shop if the request went through {@link ShopReadyFilter}; error pages, for one, do not. */
    static Optional<Shop> ifReady(HttpServletRequest request) {
        return Optional.ofNullable((Shop) request.getAttribute(REQUEST_ATTRIBUTE));
    }

    static Shop of(HttpServletRequest request) {
        Shop shop = (Shop) request.getAttribute(REQUEST_ATTRIBUTE);
        if (shop == null) {
            throw new IllegalStateException("ShopReadyFilter is not mapped in front of this servlet");
        }
        return shop;
    }
}
