# syntax=docker/dockerfile:1
#
# The `cohort` image: the distribution (bin/, lib/, conf/) with the JPetStore shop in webapps/, on a
# small Java 17 JRE, running as an unprivileged user. Build and run:
#
#   docker build -t cohort .
#   docker run --rm cohort --help
#   docker compose up -d          # the whole multi-host example (docker-compose.yml)
#
# Stages: `build` compiles the distribution with the Maven wrapper; `cohort` (the last stage, so the
# default target) is the runtime image; `bench` is the load generator of the compose file's optional
# `bench` profile (`docker build --target bench`).

# ---- build: ./mvnw -pl distribution -am package, as the README builds it -------------------------
FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
# the reactor reads every module's pom, so bench/pom.xml is needed even though bench is not built
COPY mvnw pom.xml ./
COPY .mvn/ .mvn/
COPY bench/pom.xml bench/pom.xml
COPY cluster-core/ cluster-core/
COPY replication/ replication/
COPY loadbalancer/ loadbalancer/
COPY jpetstore-app/ jpetstore-app/
COPY distribution/ distribution/
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q -pl distribution -am package -DskipTests \
 && test -f distribution/target/cohort/webapps/jpetstore.war

# ---- bench: an HTTP load generator for the compose profile `bench` --------------------------------
FROM alpine:3.20 AS bench
RUN apk add --no-cache wrk \
 && adduser -S -D -H -u 10002 bench
USER bench
ENTRYPOINT ["wrk"]
CMD ["--version"]

# ---- cohort: the runtime image ---------------------------------------------------------------------
FROM eclipse-temurin:17-jre-alpine AS cohort
LABEL org.opencontainers.image.title="cohort" \
      org.opencontainers.image.description="Cohort: session-replicating servlet cluster nodes and load balancer, with the JPetStore shop"
ENV COHORT_HOME=/opt/cohort \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
RUN addgroup -S -g 10001 cohort \
 && adduser -S -D -H -u 10001 -G cohort -h /opt/cohort cohort
COPY --from=build /src/distribution/target/cohort/ /opt/cohort/
# everything read-only for the service user but its work directory (unpacked WARs, JSP classes)
RUN mkdir -p /opt/cohort/work \
 && chown cohort:cohort /opt/cohort/work
USER 10001:10001
WORKDIR /opt/cohort
# application HTTP, admin (health, metrics), peer replication (JGroups TCP), balancer, balancer admin
EXPOSE 8081 9081 7800 8000 9000
# what bin/cohort runs, without needing a shell in the image; JVM options go in JAVA_TOOL_OPTIONS
ENTRYPOINT ["java", "-Dcohort.home=/opt/cohort", "-Dlogback.configurationFile=/opt/cohort/conf/logback.xml", \
            "-cp", "/opt/cohort/lib/*", "io.cohort.cli.Main"]
CMD ["--help"]
