package io.cohort.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;

/** A {@code cohort} command line run in this JVM, with what it printed. */
public record CommandRun(int exitCode, String out, String err) {

    public static CommandRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new CommandRun(code, out.toString(), err.toString());
    }

    public List<String> errLines() {
        return err.isEmpty() ? List.of() : Arrays.asList(err.split("\\R"));
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
