/**
 * What every system the bench loads has in common ({@link io.cohort.bench.sut.SystemUnderTest}) and how
 * its nodes are sampled ({@link io.cohort.bench.sut.NodeProbe}); shared by the study's orchestration and
 * the peer baselines' launchers, so neither depends on the other for it.
 */
package io.cohort.bench.sut;
