package io.cohort.config;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import javax.xml.validation.ValidatorHandler;
import org.xml.sax.Attributes;
import org.xml.sax.ContentHandler;
import org.xml.sax.ErrorHandler;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * One SAX pass of a file through the schema validator. Sits between the parser and the
 * {@link ValidatorHandler}: records where every element starts (the {@link SourceMap} for later
 * checks), and stops at the first error, translated by {@link ValidationMessages}. Not thread-safe;
 * one instance per parse.
 */
final class ValidationPass implements ContentHandler, ErrorHandler {

    /** Carries the translated error out of the parser. */
    static final class Stop extends SAXException {
        private static final long serialVersionUID = 1L;
        final transient ConfigException error;

        Stop(ConfigException error) {
            super(error.getMessage());
            this.error = error;
        }
    }

    private final ValidatorHandler validator;
    private final SourceText text;
    private final ValidationMessages messages;
    private final Deque<OpenElement> open = new ArrayDeque<>();
    private final Map<String, Integer> tagStarts = new HashMap<>();
    private Locator locator;
    /** A datatype error the validator reports just before naming the attribute it concerns. */
    private SAXParseException pendingValueError;

    ValidationPass(ValidatorHandler validator, SourceText text, ValidationMessages messages) {
        this.validator = validator;
        this.text = text;
        this.messages = messages;
        validator.setErrorHandler(this);
    }

    Map<String, Integer> tagStarts() {
        return tagStarts;
    }

    @Override
    public void startElement(String uri, String localName, String qName, Attributes atts) throws SAXException {
        OpenElement parent = open.peek();
        String path = (parent == null ? "" : parent.path) + "/" + localName + "[" + (parent == null ? 1 : parent.nextIndex(localName)) + "]";
        int tagStart = text.tagStart(currentOffset());
        if (parent != null) {
            parent.content(tagStart, localName);
        }
        open.push(new OpenElement(path, localName, uri, tagStart));
        tagStarts.put(path, tagStart);
        validator.startElement(uri, localName, qName, atts);
        flushPendingValueError();
    }

    @Override
    public void endElement(String uri, String localName, String qName) throws SAXException {
        validator.endElement(uri, localName, qName);
        flushPendingValueError();
        open.pop();
    }

    @Override
    public void characters(char[] ch, int start, int length) throws SAXException {
        OpenElement current = open.peek();
        if (current != null && current.firstContent < 0) {
            int end = currentOffset(); // the parser reports the position after the characters
            int first = text.firstNonSpace(end - length, end);
            if (first >= 0) {
                current.content(first, null);
            }
        }
        validator.characters(ch, start, length);
    }

    @Override
    public void error(SAXParseException e) throws SAXException {
        if (messages.isValueDetail(e)) {
            pendingValueError = pendingValueError == null ? e : pendingValueError;
            return;
        }
        throw new Stop(messages.translate(e, open.peek(), parentOfCurrent()));
    }

    @Override
    public void fatalError(SAXParseException e) throws SAXException {
        throw new Stop(messages.translate(e, open.peek(), parentOfCurrent()));
    }

    @Override
    public void warning(SAXParseException e) {
        // schema warnings do not make a configuration invalid
    }

    private void flushPendingValueError() throws Stop {
        if (pendingValueError != null) {
            throw new Stop(messages.translate(pendingValueError, open.peek(), parentOfCurrent()));
        }
    }

    private OpenElement parentOfCurrent() {
        return open.stream().skip(1).findFirst().orElse(null);
    }

    private int currentOffset() {
        return locator == null ? 0 : text.offset(locator.getLineNumber(), locator.getColumnNumber());
    }

    @Override
    public void setDocumentLocator(Locator locator) {
        this.locator = locator;
        validator.setDocumentLocator(locator);
    }

    @Override
    public void startDocument() throws SAXException {
        validator.startDocument();
    }

    @Override
    public void endDocument() throws SAXException {
        validator.endDocument();
        flushPendingValueError();
    }

    @Override
    public void startPrefixMapping(String prefix, String uri) throws SAXException {
        validator.startPrefixMapping(prefix, uri);
    }

    @Override
    public void endPrefixMapping(String prefix) throws SAXException {
        validator.endPrefixMapping(prefix);
    }

    @Override
    public void ignorableWhitespace(char[] ch, int start, int length) throws SAXException {
        validator.ignorableWhitespace(ch, start, length);
    }

    @Override
    public void processingInstruction(String target, String data) throws SAXException {
        validator.processingInstruction(target, data);
    }

    @Override
    public void skippedEntity(String name) throws SAXException {
        validator.skippedEntity(name);
    }
}
