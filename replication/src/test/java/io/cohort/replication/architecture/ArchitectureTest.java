package io.cohort.replication.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** DESIGN.md section 1: replication reaches Jetty only through cluster-core's session store SPI. */
@AnalyzeClasses(packages = "io.cohort.replication", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule replicationDoesNotTouchJettyOrTheServletApi = noClasses()
            .that().resideInAPackage("io.cohort.replication..")
            .should().dependOnClassesThat().resideInAnyPackage("org.eclipse.jetty..", "jakarta.servlet..")
            .because("the engine and its transports see sessions only through io.cohort.session");

    @ArchTest
    static final ArchRule engineWirePlacementAreTransportNeutral = noClasses()
            .that().resideInAnyPackage("io.cohort.replication.engine..", "io.cohort.replication.wire..",
                    "io.cohort.replication.placement..")
            .should().dependOnClassesThat().resideInAnyPackage("org.jgroups..", "io.cohort.replication.group..",
                    "io.cohort.replication.database..", "com.zaxxer.hikari..", "java.sql..")
            .because("a transport is a small pluggable piece behind SessionTransport");

    @ArchTest
    static final ArchRule transportsDoNotKnowEachOther = noClasses()
            .that().resideInAPackage("io.cohort.replication.database..")
            .should().dependOnClassesThat().resideInAnyPackage("org.jgroups..", "io.cohort.replication.group..",
                    "io.cohort.replication.wire..", "io.cohort.replication.placement..");

    @ArchTest
    static final ArchRule engineDoesNotKnowTheWireFormat = noClasses()
            .that().resideInAPackage("io.cohort.replication.engine..")
            .should().dependOnClassesThat().resideInAPackage("io.cohort.replication.wire..");
}
