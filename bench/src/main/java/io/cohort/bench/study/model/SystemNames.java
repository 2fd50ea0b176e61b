package io.cohort.bench.study.model;

/**
 * The names an experiment's {@link ExperimentSpec#target() target} takes: what the run folder records, what the
 * runner starts for it and what the report looks up.
 */
public final class SystemNames {

    /** Cohort nodes behind Cohort's balancer (every experiment of the study). */
    public static final String COHORT = "cohort";
    /** Cohort nodes behind HAProxy. */
    public static final String COHORT_HAPROXY = "cohort-haproxy";
    /** Tomcat 11 without a cluster (StandardManager). */
    public static final String TOMCAT_NONE = "tomcat-none";
    /** Tomcat 11 with DeltaManager (all-to-all). */
    public static final String TOMCAT_DELTA = "tomcat-delta";
    /** Tomcat 11 with BackupManager (one backup). */
    public static final String TOMCAT_BACKUP = "tomcat-backup";
    /** Plain Jetty 12 with JDBCSessionDataStore. */
    public static final String JETTY_JDBC = "jetty-jdbc";

    private SystemNames() {
    }
}
