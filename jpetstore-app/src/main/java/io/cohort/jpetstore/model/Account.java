package io.cohort.jpetstore.model;

import java.io.Serial;
import java.io.Serializable;
import java.util.Objects;

/**
 * A customer's profile, kept in the session as "account" while signed on. It never holds the password
 * or its hash: those stay in the database.
 *
 * @param favouriteCategoryId a category id, or "" for none
 */
public record Account(String username, String email, String phone, Address address, String favouriteCategoryId)
        implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public Account {
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(address, "address");
        favouriteCategoryId = favouriteCategoryId == null ? "" : favouriteCategoryId;
    }
}
