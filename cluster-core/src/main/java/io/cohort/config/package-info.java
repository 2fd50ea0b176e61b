/**
 * Cohort's XML configuration: the file of a node and/or a balancer ({@code urn:cohort:config:1})
 * and a web application's {@code WEB-INF/cohort-web.xml} ({@code urn:cohort:web:1}), their schemas
 * (resources next to these classes), and the immutable records they bind to.
 *
 * <p>Start at {@link io.cohort.config.ConfigLoader}: it validates a file against its XSD with the
 * JDK's validator, binds it with Jackson, applies defaults, resolves paths and secrets, checks the
 * rules a schema cannot express, and returns a {@link io.cohort.config.CohortConfig} (a node), a
 * {@link io.cohort.config.BalancerConfig} or a {@link io.cohort.config.ConfigFile} (both), or
 * throws one
 * {@link io.cohort.config.ConfigException} of the form {@code file:line:column: problem; expected
 * ...}. {@link io.cohort.config.ConfigCheck} is the command-line check. The reference page of every
 * element and attribute is {@code docs/configuration.md}, checked against the XSDs by the tests.
 */
package io.cohort.config;
