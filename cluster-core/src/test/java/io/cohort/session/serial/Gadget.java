package io.cohort.session.serial;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;

/**
 * Stands for a deserialization gadget in tests: a serializable library class whose
 * {@code readObject} must never run when the allow-list filter works.
 */
public final class Gadget implements Serializable {

    private static final long serialVersionUID = 1L;
    private static volatile boolean executed;

    public static boolean executed() {
        return executed;
    }

    public static void reset() {
        executed = false;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        executed = true;
        in.defaultReadObject();
    }
}
