# syntax=docker/dockerfile:1
# fixmatch: builds the distribution from this repository with Maven, runs it on a JDK. Used by docker-compose.yml;
# alone: docker build -t fixmatch . && docker run -p 127.0.0.1:9878:9878 -p 127.0.0.1:9880:9880 fixmatch

# --- build: the distribution archive (scripts/dist.sh; the tests are CI's job) ----------------------------------
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# BuildKit keeps the Maven repository between builds. The archive is unpacked to /opt/fixmatch.
RUN --mount=type=cache,target=/root/.m2 scripts/dist.sh \
 && tar -xzf dist/target/fixmatch-*.tar.gz -C /opt \
 && mv /opt/fixmatch-* /opt/fixmatch

# --- run: the distribution on a JDK (Chronicle uses the jdk.compiler module a JRE lacks) ---------------------------
FROM eclipse-temurin:17-jdk
# curl: the health check's GET /health on the admin port. The volumes' folders belong to the user that runs.
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home-dir /opt/fixmatch fixmatch \
 && mkdir -p /var/lib/fixmatch /var/lib/fixmatch-loadgen \
 && chown fixmatch /var/lib/fixmatch /var/lib/fixmatch-loadgen
COPY --from=build /opt/fixmatch /opt/fixmatch
WORKDIR /opt/fixmatch
# In a container the FIX acceptor and the admin endpoint listen on every interface (publish them on the host's
# loopback or a private interface); the data folder (journal, session state, logs) is a volume.
ENV FIXMATCH_FIX_HOST=0.0.0.0 \
    FIXMATCH_ADMIN_HOST=0.0.0.0 \
    FIXMATCH_DATA_DIR=/var/lib/fixmatch
VOLUME /var/lib/fixmatch
USER fixmatch
# FIX 4.4, admin HTTP
EXPOSE 9878 9880
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD curl -fsS http://127.0.0.1:9880/health || exit 1
# The server is PID 1 (the bin script execs java): docker stop's SIGTERM is a clean stop, exit status 0.
ENTRYPOINT ["bin/fixmatch-server"]
