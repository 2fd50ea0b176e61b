package io.cohort.config;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The characters of a configuration file and the arithmetic between offsets and the 1-based
 * line:column positions that the XML parser reports. Used to point errors at the start of a tag or
 * at one attribute, where the parser only knows the end of the start tag. Files are read as UTF-8
 * (the XML default); with another encoding, positions fall back to what the parser reported.
 */
final class SourceText {

    /** A 1-based position. */
    record Position(int line, int column) {
    }

    private final String text;
    private final int[] lineStarts;

    private SourceText(String text) {
        this.text = text;
        List<Integer> starts = new ArrayList<>(List.of(0));
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n'))) {
                starts.add(i + 1);
            }
        }
        this.lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
    }

    static SourceText decode(byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            text = ""; // cannot happen with REPLACE; positions then fall back to the parser's
        }
        return new SourceText(text.startsWith("\uFEFF") ? text.substring(1) : text); // parsers do not count a BOM
    }

    /** The offset of a parser position, clamped to the text. */
    int offset(int line, int column) {
        if (line < 1) {
            return 0;
        }
        int start = lineStarts[Math.min(line, lineStarts.length) - 1];
        return Math.max(0, Math.min(text.length(), start + Math.max(column, 1) - 1));
    }

    Position position(int offset) {
        int line = 0;
        while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) {
            line++;
        }
        return new Position(line + 1, offset - lineStarts[line] + 1);
    }

    /**
     * The offset of the {@code <} that opens the tag ending just before {@code tagEnd}. Attribute
     * values cannot contain {@code <}, so the nearest one before the end is the tag's.
     */
    int tagStart(int tagEnd) {
        int lt = text.lastIndexOf('<', Math.max(0, tagEnd - 1));
        return lt < 0 ? tagEnd : lt;
    }

    /** The offset of attribute {@code name} in the start tag at {@code tagStart}, or -1. */
    int attribute(int tagStart, String name) {
        int i = skipName(tagStart + 1);
        while (true) {
            i = skipSpace(i);
            if (i >= text.length() || text.charAt(i) == '>' || text.charAt(i) == '/') {
                return -1;
            }
            int nameStart = i;
            i = skipName(i);
            String found = text.substring(nameStart, i);
            i = skipSpace(i);
            if (i >= text.length() || text.charAt(i) != '=') {
                return -1;
            }
            i = skipSpace(i + 1);
            if (i >= text.length() || (text.charAt(i) != '"' && text.charAt(i) != '\'')) {
                return -1;
            }
            int close = text.indexOf(text.charAt(i), i + 1);
            if (found.equals(name)) {
                return nameStart;
            }
            if (close < 0) {
                return -1;
            }
            i = close + 1;
        }
    }

    /** The offset of the first non-whitespace character in {@code [from, to)}, or -1. */
    int firstNonSpace(int from, int to) {
        for (int i = Math.max(0, from); i < Math.min(to, text.length()); i++) {
            if (!isSpace(text.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private int skipName(int i) {
        while (i < text.length() && !isSpace(text.charAt(i)) && "=/>".indexOf(text.charAt(i)) < 0) {
            i++;
        }
        return i;
    }

    private int skipSpace(int i) {
        while (i < text.length() && isSpace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
}
