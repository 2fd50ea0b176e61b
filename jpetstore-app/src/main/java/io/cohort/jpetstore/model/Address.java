package io.cohort.jpetstore.model;

import java.io.Serial;
import java.io.Serializable;

/** A postal address with the name of the person at it; used for accounts, billing and shipping. */
public record Address(String firstName, String lastName, String line1, String line2, String city,
                      String state, String zip, String country) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public Address {
        line2 = line2 == null ? "" : line2;
    }

    public String fullName() {
        return firstName + " " + lastName;
    }
}
