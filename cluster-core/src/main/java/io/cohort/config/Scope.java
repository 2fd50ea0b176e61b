package io.cohort.config;

/**
 * What a replicated change contains (DESIGN.md section 3).
 */
public enum Scope {
    /** Only attributes set or removed since the last replication of the session. */
    MODIFIED_ATTRIBUTES("modifiedAttributes"),
    /** Every attribute of the session, every time; catches objects mutated in place. */
    ALL_ATTRIBUTES("allAttributes");

    private final String xmlName;

    Scope(String xmlName) {
        this.xmlName = xmlName;
    }

    /** The spelling used in configuration files, e.g. {@code modifiedAttributes}. */
    public String xmlName() {
        return xmlName;
    }

    /**
     * The constant spelled {@code xmlName} in configuration files.
     *
     * @throws IllegalArgumentException for any other spelling
     */
    public static Scope fromXml(String xmlName) {
        for (Scope value : values()) {
            if (value.xmlName.equals(xmlName)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown scope " + xmlName + "; expected one of modifiedAttributes, allAttributes");
    }
}
