package io.cohort.jpetstore.web;

import io.cohort.jpetstore.model.Category;
import io.cohort.jpetstore.model.Item;
import io.cohort.jpetstore.model.Product;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Browsing: the home page with the categories ({@code /}), a category's products ({@code /category?id=}),
 * a product's items ({@code /product?id=}) and one item ({@code /item?id=}, remembered as the viewed item).
 */
public final class CatalogServlet extends ShopServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        switch (request.getServletPath()) {
            case "", "/" -> home(request, response);
            case "/category" -> category(request, response);
            case "/product" -> product(request, response);
            case "/item" -> item(request, response);
            default -> throw ClientErrorException.notFound("There is no such page.");
        }
    }

    private void home(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        request.setAttribute("categories", Shop.of(request).catalog().categories());
        Pages.render(request, response, "home");
    }

    private void category(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        String id = RequestParameters.requiredId(request, "id");
        Shop shop = Shop.of(request);
        Category category = shop.catalog().category(id)
                .orElseThrow(() -> ClientErrorException.notFound("There is no category '" + id + "'."));
        request.setAttribute("category", category);
        request.setAttribute("products", shop.catalog().productsIn(id));
        Pages.render(request, response, "category");
    }

    private void product(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        String id = RequestParameters.requiredId(request, "id");
        Shop shop = Shop.of(request);
        Product product = shop.catalog().product(id)
                .orElseThrow(() -> ClientErrorException.notFound("There is no product '" + id + "'."));
        request.setAttribute("product", product);
        request.setAttribute("category", shop.catalog().category(product.categoryId()).orElse(null));
        request.setAttribute("items", shop.catalog().itemsOf(id));
        Pages.renderForm(request, response, "product");
    }

    private void item(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        String id = RequestParameters.requiredId(request, "id");
        Shop shop = Shop.of(request);
        Item item = shop.catalog().item(id)
                .orElseThrow(() -> ClientErrorException.notFound("There is no item '" + id + "'."));
        request.setAttribute("item", item);
        request.setAttribute("product", shop.catalog().product(item.productId()).orElse(null));
        request.setAttribute("category", shop.catalog().category(item.categoryId()).orElse(null));
        ShopSession.of(request).viewed(item);
        Pages.renderForm(request, response, "item");
    }
}
