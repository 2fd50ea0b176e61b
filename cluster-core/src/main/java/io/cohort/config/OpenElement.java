package io.cohort.config;

import java.util.HashMap;
import java.util.Map;

/**
 * An element being parsed during schema validation: its path, where its start tag begins, and where
 * its first content is, so that "content not allowed" errors can point at that content rather than
 * at the end tag where the validator notices it.
 */
final class OpenElement {

    final String path;
    final String localName;
    final String namespace;
    final int tagStart;
    private final Map<String, Integer> childCounts = new HashMap<>();
    /** Offset of the first child element or non-blank text, -1 if none yet. */
    int firstContent = -1;
    /** The first child element's name, or null if the first content was text. */
    String firstChild;

    OpenElement(String path, String localName, String namespace, int tagStart) {
        this.path = path;
        this.localName = localName;
        this.namespace = namespace;
        this.tagStart = tagStart;
    }

    /** Counts a child of this name and returns its 1-based index among same-named siblings. */
    int nextIndex(String childName) {
        return childCounts.merge(childName, 1, Integer::sum);
    }

    void content(int offset, String childElement) {
        if (firstContent < 0) {
            firstContent = offset;
            firstChild = childElement;
        }
    }
}
