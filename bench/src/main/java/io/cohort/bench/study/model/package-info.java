/**
 * The raw data of one {@code cohort bench} run, as written to and read from the run folder.
 *
 * <p>The driver and orchestration ({@code io.cohort.bench.study.driver},
 * {@code io.cohort.bench.study.run}) produce these records; the report ({@code io.cohort.bench.study.report})
 * reads them back and never talks to a cluster. Layout of a run folder, written by {@link RunFolder}:
 * <pre>
 *   run.json                        RunManifest
 *   experiments/&lt;id&gt;.json          ExperimentResult (summary, timeline, node samples, failover)
 *   summary.csv                     one row per experiment (Summary columns)
 *   timeline/&lt;id&gt;.csv             ThroughputPoint rows
 *   nodes/&lt;id&gt;.csv                NodeSample rows
 *   summary.md, index.html, charts/ the report (written by the report package)
 * </pre>
 * All times in a timeline are seconds since the start of the measurement window (warm-up excluded,
 * so samples taken during warm-up have negative seconds); all latencies are milliseconds measured from
 * the scheduled send time.
 */
package io.cohort.bench.study.model;
