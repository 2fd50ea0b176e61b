#!/usr/bin/env bash
# Asynchronous replication's CPU per change in two configurations (--compare bundling: batch-size 64 vs 1;
# --compare processing: JGroups message_processing_policy direct vs max; --compare tls: payload encryption vs
# <security tls="true">; --compare tuning --a K=V,... --b K=V,...:
# any two sets of stack placeholders, batch-size, flush-interval and caller-sends=never|when-idle|when-quiet), with context switches per change,
# side by side in alternating rounds, two members in one JVM over JGroups TCP on loopback (encrypted).
# Writes bench/results/replication-cost-<comparison>/{results.csv,summary.md} (or $BENCH_OUT). Default: 4 rounds
# × 2 variants × 35 s plus one warm-up measurement, about 6 minutes (plus the build).
# Usage: bench/run-replication-cost.sh [--compare bundling|processing|tls|tuning [--a K=V,...] [--b K=V,...]] [--rounds N] [--rate CHANGES_PER_S]
#        [--threads N] [--sessions N] [--warmup S] [--window S]
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${SKIP_BUILD:-}" != "1" ]]; then
  ./mvnw -q -B -pl bench -am package -DskipTests
fi
exec java -Xms512m -Xmx512m -Djava.net.preferIPv4Stack=true -Dlogback.configurationFile=cohort-bench-logback.xml \
  -cp "bench/target/classes:$(cat bench/target/run.classpath)" \
  io.cohort.bench.ReplicationCostBench ${BENCH_OUT:+"$BENCH_OUT"} "$@"
