package io.cohort.config;

/**
 * When the replication engine sends a session's changes (DESIGN.md section 3).
 */
public enum Trigger {
    /** Each setAttribute/removeAttribute sends a change at once, in the calling thread. */
    ON_SET_ATTRIBUTE("onSetAttribute"),
    /** The changes of one request are coalesced and sent once, before the response is committed. */
    ON_REQUEST_END("onRequestEnd"),
    /** Nothing is sent in normal operation; a graceful stop sends every owned session in full. */
    ON_SHUTDOWN("onShutdown");

    private final String xmlName;

    Trigger(String xmlName) {
        this.xmlName = xmlName;
    }

    /** The spelling used in configuration files, e.g. {@code onRequestEnd}. */
    public String xmlName() {
        return xmlName;
    }

    /**
     * The constant spelled {@code xmlName} in configuration files.
     *
     * @throws IllegalArgumentException for any other spelling
     */
    public static Trigger fromXml(String xmlName) {
        for (Trigger value : values()) {
            if (value.xmlName.equals(xmlName)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown trigger " + xmlName + "; expected one of onSetAttribute, onRequestEnd, onShutdown");
    }
}
