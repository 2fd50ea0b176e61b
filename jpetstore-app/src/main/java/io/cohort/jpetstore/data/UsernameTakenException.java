package io.cohort.jpetstore.data;

/** A new account asked for a user name that another account already has. */
public class UsernameTakenException extends Exception {
    public UsernameTakenException(String username) {
        super("user name already taken: " + username);
    }
}
