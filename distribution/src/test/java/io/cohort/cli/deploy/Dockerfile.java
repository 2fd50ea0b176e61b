package io.cohort.cli.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * For tests: the instructions of a Dockerfile, by stage. Continuation lines are joined, comments and
 * parser directives dropped; each stage is named by its {@code AS} name (or its index).
 *
 * @param instructions every instruction with the stage it belongs to
 */
record Dockerfile(List<Instruction> instructions) {

    /** One instruction: its stage, keyword (upper case) and arguments. */
    record Instruction(String stage, String keyword, String arguments) {
    }

    static Dockerfile read(Path file) throws IOException {
        List<Instruction> instructions = new ArrayList<>();
        String stage = null;
        StringBuilder pending = new StringBuilder();
        for (String raw : Files.readAllLines(file)) {
            String line = raw.strip();
            if (pending.isEmpty() && (line.isEmpty() || line.startsWith("#"))) {
                continue;
            }
            if (line.startsWith("#")) {
                continue; // a comment inside a continued instruction
            }
            if (line.endsWith("\\")) {
                pending.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            pending.append(line);
            String text = pending.toString().strip();
            pending.setLength(0);
            String[] parts = text.split("\\s+", 2);
            String keyword = parts[0].toUpperCase(Locale.ROOT);
            String arguments = parts.length > 1 ? parts[1] : "";
            if (keyword.equals("FROM")) {
                String[] from = arguments.split("\\s+");
                stage = from.length >= 3 && from[1].equalsIgnoreCase("AS") ? from[2] : Integer.toString(stages(instructions).size());
            }
            if (stage == null) {
                throw new IOException(file + ": " + keyword + " before the first FROM");
            }
            instructions.add(new Instruction(stage, keyword, arguments));
        }
        return new Dockerfile(List.copyOf(instructions));
    }

    /** Stage names in order. */
    List<String> stages() {
        return stages(instructions);
    }

    private static List<String> stages(List<Instruction> instructions) {
        return instructions.stream().filter(i -> i.keyword().equals("FROM")).map(Instruction::stage).toList();
    }

    /** The image a stage starts from. */
    String baseOf(String stage) {
        return all(stage, "FROM").get(0).split("\\s+")[0];
    }

    List<String> all(String stage, String keyword) {
        return instructions.stream().filter(i -> i.stage().equals(stage) && i.keyword().equals(keyword))
                .map(Instruction::arguments).toList();
    }

    Optional<String> last(String stage, String keyword) {
        List<String> found = all(stage, keyword);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(found.size() - 1));
    }

    /** The sources of every COPY/ADD that reads the build context (not another stage). */
    List<String> contextSources() {
        List<String> sources = new ArrayList<>();
        for (Instruction i : instructions) {
            if ((i.keyword().equals("COPY") || i.keyword().equals("ADD")) && !i.arguments().contains("--from=")) {
                List<String> words = new ArrayList<>(List.of(i.arguments().split("\\s+")));
                words.removeIf(w -> w.startsWith("--"));
                sources.addAll(words.subList(0, words.size() - 1));
            }
        }
        return sources;
    }
}
