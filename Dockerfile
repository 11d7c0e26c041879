# Tessera gateway image. Build: docker build -t tessera . ; run:
#   docker run -p 8080:8080 -v tessera-data:/data -e TESSERA_DATA_KEY="$(openssl rand -base64 32)" tessera
# (or DATABASE_URL=postgres://… with TESSERA_DATA_KEY). test/qa/package.test.ts runs this recipe's
# CMD and HEALTHCHECK against the packed package, so it cannot drift from the code.

FROM node:20-bookworm-slim AS pack
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
