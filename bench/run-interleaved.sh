#!/usr/bin/env bash
# Two replication patterns (default none and 2211) at the same load, in turns on two local clusters that run side by
# side: A B A B ... A, each B turn judged against the A turns around it. Needs the built distribution.
# Writes bench/results/interleaved-<A>-vs-<B>/{windows.csv,summary.md} (or the folder given first).
# Default: 2 nodes x 250 users per node, 40 s turns (15 s settling), 8 warm-up pairs + 5 recorded pairs + 1 turn:
# about 18 minutes plus the clusters' start.
# Usage: bench/run-interleaved.sh [out-dir] [--patterns A,B] [--nodes N] [--load USERS_PER_NODE] [--window S]
#        [--settle S] [--warmup-pairs N] [--pairs N] [--cohort-home DIR]
#        [--a-node-options -Dname=value,...] [--b-node-options -Dname=value,...]
# The node options go to one side's node JVMs only: --patterns 2211,2211 --b-node-options
# -Dcohort.transport=TCP,-Dcohort.bundler_type=pd compares one pattern under two JGroups stack tunings.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${SKIP_BUILD:-}" != "1" ]]; then
  ./mvnw -q -B -pl bench,distribution -am package -DskipTests
fi
exec java -Xms1g -Xmx1g -Djava.net.preferIPv4Stack=true -Dlogback.configurationFile=cohort-bench-logback.xml \
  -cp "bench/target/classes:$(cat bench/target/run.classpath)" \
  io.cohort.bench.InterleavedBench "$@"
