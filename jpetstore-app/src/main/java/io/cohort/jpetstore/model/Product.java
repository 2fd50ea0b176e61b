package io.cohort.jpetstore.model;

/** A kind of animal; it is sold as one or more {@link Item}s. Never kept in the session. */
public record Product(String id, String categoryId, String name, String description) {
}
