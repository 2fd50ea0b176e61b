package io.cohort.jpetstore.data;

import java.time.LocalDateTime;

/**
 * What the marker row says is in the database.
 *
 * @param loadedHere true if this call loaded it, false if it was there already or another node loaded it
 */
public record LoadedDataSet(String kind, int accounts, int products, LocalDateTime loadedAt, boolean loadedHere) {
    @Override
    public String toString() {
        return kind + " data set (" + accounts + " generated accounts, " + products + " generated products, loaded "
                + loadedAt + ")";
    }
}
