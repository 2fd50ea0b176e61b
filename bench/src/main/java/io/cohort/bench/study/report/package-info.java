/**
 * The report of one {@code cohort bench} run, written from the run folder's raw data only
 * ({@link io.cohort.bench.study.report.StudyReport}).
 *
 * <p>Reading order of the code: {@code RunData} indexes the experiments; {@code RatioPoint} and
 * {@code Baseline} compute the study's ratios; {@code Comparisons} turns two patterns into a
 * {@code Check} with an explicit tolerance; {@code StudyFindings} and {@code WriteQuotaChecks} build
 * the findings F1–F13 from checks and {@code Verdict} decides each; {@code Targets} judges Cohort's
 * targets; {@code ReportDocument} and {@code GroupSections} lay the content out as {@code Block}s,
 * which {@code MarkdownRenderer} and {@code HtmlRenderer} render and whose {@code ChartSpec}s
 * {@code ChartWriter} draws with XChart.
 */
package io.cohort.bench.study.report;
