package io.cohort.jpetstore.model;

import java.io.Serial;
import java.io.Serializable;
import java.util.Objects;

/** One line of a search result: just enough to render and link it, so that results stay small in the session. */
public record ProductSummary(String id, String name, String categoryId) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public ProductSummary {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(categoryId, "categoryId");
    }
}
