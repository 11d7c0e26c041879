# Tessera gateway image (README: Docker). Build, naming the commit `tessera --version` prints:
#   docker build --build-arg TESSERA_COMMIT="$(git rev-parse --short=12 HEAD)" -t tessera .
# The data key is made ONCE and kept outside the image and the data volume (a new key per run
# could not read what the last run stored, and the gateway refuses to start):
#   umask 077; printf 'TESSERA_DATA_KEY=%s\n' "$(openssl rand -base64 32)" > tessera.env
#   docker run -d -p 127.0.0.1:8080:8080 -v tessera-data:/data --env-file tessera.env tessera
# or as a secret file readable by uid 10001: TESSERA_DATA_KEY_FILE=/run/secrets/tessera_data_key.
# (or DATABASE_URL=postgres://… with the same key). No merchant exists until
#   docker exec <container> tessera keys create --name "My shop"
# test/qa/package.test.ts runs this recipe's CMD and HEALTHCHECK against the packed package, so it
# cannot drift from the code. A proxy in front: docs/deploy/nginx.conf.

FROM node:20-bookworm-slim AS pack
# No .git in the build context (.dockerignore): the commit comes in as a build argument.
ARG TESSERA_COMMIT=unknown
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm pack --silent && mv tessera-gateway-*.tgz /tmp/tessera-gateway.tgz

FROM node:20-bookworm-slim
COPY --from=pack /tmp/tessera-gateway.tgz /tmp/tessera-gateway.tgz
RUN npm install --global --omit=dev --no-audit --no-fund /tmp/tessera-gateway.tgz \
 && rm /tmp/tessera-gateway.tgz \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin tessera \
 && mkdir -p /data && chown tessera /data && chmod 700 /data
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 TESSERA_DATA_DIR=/data
USER tessera
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["tessera", "serve"]
