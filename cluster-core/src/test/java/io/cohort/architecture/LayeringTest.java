package io.cohort.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * DESIGN.md section 1: stores are written against the session store SPI and the cluster view, which
 * know nothing of Jetty or the Servlet API; only the adapter package talks to Jetty's sessions.
 */
@AnalyzeClasses(packages = "io.cohort", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {

    @ArchTest
    static final ArchRule sessionSpiIsContainerFree = noClasses()
            .that().resideInAnyPackage("io.cohort.session", "io.cohort.session.serial", "io.cohort.session.local",
                    "io.cohort.cluster", "io.cohort.config")
            .should().dependOnClassesThat().resideInAnyPackage("org.eclipse.jetty..", "jakarta.servlet..")
            .because("stores and the replication engine must not reach into the container");

    @ArchTest
    static final ArchRule configurationDependsOnNothingOfTheRuntime = noClasses()
            .that().resideInAPackage("io.cohort.config..")
            .should().dependOnClassesThat().resideInAnyPackage("io.cohort.node..", "io.cohort.session..",
                    "io.cohort.admin..", "io.cohort.metrics..")
            .because("configuration is a leaf: validated records, read by everything else");

    @ArchTest
    static final ArchRule spiDoesNotDependOnTheNode = noClasses()
            .that().resideInAnyPackage("io.cohort.session..", "io.cohort.cluster..")
            .should().dependOnClassesThat().resideInAnyPackage("io.cohort.node..", "io.cohort.admin..")
            .because("the node depends on the SPI, never the other way round");
}
