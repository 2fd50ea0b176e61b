package io.cohort.config;

/**
 * How members of a {@link PeerProtocol} cluster find each other.
 */
public enum Discovery {
    /** The configured {@link PeerMember} list. */
    STATIC("static"),
    /** The records of {@link PeerProtocol#dnsQuery()}. */
    DNS("dns"),
    /** A table in the data source {@link PeerProtocol#discoveryDataSource()}. */
    JDBC("jdbc");

    private final String xmlName;

    Discovery(String xmlName) {
        this.xmlName = xmlName;
    }

    /** The spelling used in configuration files, e.g. {@code static}. */
    public String xmlName() {
        return xmlName;
    }

    /**
     * The constant spelled {@code xmlName} in configuration files.
     *
     * @throws IllegalArgumentException for any other spelling
     */
    public static Discovery fromXml(String xmlName) {
        for (Discovery value : values()) {
            if (value.xmlName.equals(xmlName)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown discovery " + xmlName + "; expected one of static, dns, jdbc");
    }
}
