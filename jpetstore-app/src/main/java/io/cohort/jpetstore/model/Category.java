package io.cohort.jpetstore.model;

/** A top-level shelf of the shop (FISH, DOGS, ...). Read from the catalog; never kept in the session. */
public record Category(String id, String name, String description) {
}
