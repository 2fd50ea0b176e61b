#!/usr/bin/env bash
# Balancer overhead: a Cohort node with a 100-byte servlet and a BalancerServer in front of it (one JVM),
# and HAProxy in front of the same node as the reference proxy, loaded by wrk directly, through the
# balancer and through HAProxy in turn (default: 3 rounds × 10 s each, 2 threads, 32 connections, after
# a 15 s warm-up per target), plus a single-connection latency probe (wrk -t1 -c1) per target and round.
# Writes bench/results/balancer-overhead/ (raw/ wrk output, results.csv, summary.md). Takes about
# 4 minutes (plus the build).
# Usage: bench/run-balancer-overhead.sh [--rounds N] [--duration S] [--warmup S] [--threads N] [--connections N]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v wrk >/dev/null 2>&1; then
  echo "wrk is not installed; on Debian/Ubuntu: sudo apt-get install -y wrk" >&2
  exit 2
fi
if ! command -v "${COHORT_HAPROXY:-haproxy}" >/dev/null 2>&1; then
  echo "haproxy is not installed; on Debian/Ubuntu: sudo apt-get install -y haproxy" >&2
  exit 2
fi
if [[ "${SKIP_BUILD:-}" != "1" ]]; then
  ./mvnw -q -B -pl bench -am package -DskipTests
fi
out="${BENCH_OUT:-bench/results/balancer-overhead}"
exec java -Xms512m -Xmx512m -Dlogback.configurationFile=cohort-bench-logback.xml -cp "bench/target/classes:$(cat bench/target/run.classpath)" \
  io.cohort.bench.BalancerOverheadBench "$out" "$@"
