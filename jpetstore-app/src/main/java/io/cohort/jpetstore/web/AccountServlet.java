package io.cohort.jpetstore.web;

import io.cohort.jpetstore.data.UsernameTakenException;
import io.cohort.jpetstore.model.Account;
import io.cohort.jpetstore.model.Category;
import io.cohort.jpetstore.web.form.AccountForm;
import io.cohort.jpetstore.web.form.Form;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** {@code /account/new} creates an account and signs on; {@code /account/edit} changes the signed-on account. */
public final class AccountServlet extends ShopServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        if (isNew(request)) {
            show(request, response, Form.empty(), true);
        } else {
            Account account = signedOn(request);
            Account fresh = Shop.of(request).accounts().find(account.username()).orElse(account);
            show(request, response, Form.of(AccountForm.values(fresh)), false);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        boolean isNew = isNew(request);
        Shop shop = Shop.of(request);
        Form form = Form.read(request, AccountForm.fields());
        Account account = AccountForm.validate(form, isNew ? null : signedOn(request).username(), categoryIds(shop));
        if (!form.isValid()) {
            show(request, response, form, isNew);
            return;
        }
        ShopSession session = ShopSession.of(request);
        if (isNew) {
            try {
                shop.accounts().create(account, form.value("password"));
            } catch (UsernameTakenException e) {
                form.reject("username", "That user name is taken; please choose another.");
                show(request, response, form, true);
                return;
            }
            session.signOn(account);
            Pages.redirect(request, response, "/", Notice.WELCOME);
        } else {
            String password = form.value("password");
            shop.accounts().update(account, password.isEmpty() ? Optional.empty() : Optional.of(password));
            session.accountUpdated(account);
            Pages.redirect(request, response, "/account/edit", Notice.ACCOUNT_SAVED);
        }
    }

    private static boolean isNew(HttpServletRequest request) {
        return switch (request.getServletPath()) {
            case "/account/new" -> true;
            case "/account/edit" -> false;
            default -> throw ClientErrorException.notFound("There is no such account page.");
        };
    }

    private static Account signedOn(HttpServletRequest request) {
        return ShopSession.of(request).account()
                .orElseThrow(() -> new IllegalStateException("SignOnRequiredFilter is not mapped to /account/edit"));
    }

    private static Set<String> categoryIds(Shop shop) {
        return shop.catalog().categories().stream().map(Category::id).collect(Collectors.toSet());
    }

    private static void show(HttpServletRequest request, HttpServletResponse response, Form form, boolean isNew)
            throws ServletException, IOException {
        List<Category> categories = Shop.of(request).catalog().categories();
        request.setAttribute("form", form);
        request.setAttribute("isNew", isNew);
        request.setAttribute("categories", categories);
        Pages.renderForm(request, response, "account");
    }
}
