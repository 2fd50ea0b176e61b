#!/usr/bin/env bash
# Replication hot path (JMH): builds bench and what it needs, runs the benchmarks with modest settings
# (1 fork, 1 thread, 3 warm-ups × 2 s and 5 measurements × 2 s; the JGroups loopback benchmark warms up
# 8 × 2 s) and writes bench/results/replication-hot-path/{jmh.json,summary.md}. Takes about 6 minutes.
# Usage: bench/run-jmh.sh [--quick]      (--quick: a smoke run of about 1 minute; figures not worth quoting)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${SKIP_BUILD:-}" != "1" ]]; then
  ./mvnw -q -B -pl bench -am package -DskipTests
fi
out="bench/results/replication-hot-path"
if [[ " $* " == *" --quick "* ]]; then out="bench/target/replication-hot-path-quick"; fi
exec java -Xmx512m -Dlogback.configurationFile=cohort-bench-logback.xml -cp "bench/target/classes:$(cat bench/target/run.classpath)" \
  io.cohort.bench.ReplicationHotPathBench "$out" "$@"
