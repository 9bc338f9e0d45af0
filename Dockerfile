# kube-graceful as a containerized KRM function (kustomize `container: image:`, `kpt fn eval --image`,
# kpt Kptfile `image:`). Build: docker build -t kube-graceful:0.1.0 .
#
# Run time: node and dist/ (launcher, bundle, code cache), nothing else: no shell, no package manager, no network
# (kustomize and kpt start it with `--network none --user nobody`), non-root user by default.
# The entrypoint is the KRM function itself: a ResourceList on stdin, the same on stdout, `results`
# for findings, exit 1 on error results, 2 on bad input or config (messages on stderr).

# --- build: the launcher dist/cli.js, the bundle and its V8 code cache (scripts/build.mjs) ---
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# esbuild's platform binary comes as an optional dependency; no install scripts are needed.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.mjs scripts/build.mjs
COPY fn/ fn/
# The streams the build runs once to make the code cache (TRAINING in scripts/build.mjs). The cache
# is made by this stage's Node; if the run stage's Node 20 differs, V8 rejects it and the function
# compiles as usual: the same output, a slower start.
COPY examples/quickstart/istio-gateway-nlb.yaml examples/quickstart/istio-gateway-nlb.yaml
COPY examples/manifests/graceful-demo.yaml examples/manifests/graceful-demo.yaml
RUN npm run build

# --- run: distroless Node.js 20 (no shell), as the image's non-root user (uid 65532) ---
FROM gcr.io/distroless/nodejs20-debian12:nonroot
LABEL org.opencontainers.image.title="kube-graceful" \
      org.opencontainers.image.description="KRM function: graceful shutdown settings for rendered Kubernetes manifests" \
      org.opencontainers.image.licenses="Apache-2.0"
COPY --from=build /src/dist/ /app/
USER nonroot
ENV NODE_ENV=production
ENTRYPOINT ["/nodejs/bin/node", "/app/cli.js"]
