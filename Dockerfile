# kube-graceful as a containerized KRM function (kustomize `container: image:`, `kpt fn eval --image`,
# kpt Kptfile `image:`). Build and run: see README "Container image".
#
#   docker build -t localhost/kube-graceful:dev .                    bundle built here, distroless base
#   docker build --build-arg BASE=localhost/my-node20 ...             another Node 20 base (see BASE)
#   podman build --target prebuilt -f Dockerfile <dir holding dist/> the bundle of `npm run build`
#
# Run time: node and dist/ (launcher, bundle, code cache), nothing else: no shell, no package manager, no network
# (kustomize and kpt start it with `--network none --user nobody`), non-root user by default.
# The entrypoint is the KRM function itself: a ResourceList on stdin, the same on stdout, `results`
# for findings, exit 1 on error results, 2 on bad input or config (messages on stderr).

# The run stage's base: Node 20 at /nodejs/bin/node (distroless' layout; the tests' base made from
# Debian packages, scripts/image/base.sh, links it there) and a `nobody` user for kustomize and kpt.
ARG BASE=gcr.io/distroless/nodejs20-debian12:nonroot
# The image the build stage runs on: Node 20 with npm.
ARG BUILDER=node:20-bookworm-slim

# --- runtime: Node.js 20 without a shell, as a non-root user: 65532 is distroless' `nonroot`
# (NONROOT in common/variables.bzl of GoogleContainerTools/distroless), numeric so any base has it ---
FROM ${BASE} AS runtime
LABEL org.opencontainers.image.title="kube-graceful" \
      org.opencontainers.image.description="KRM function: graceful shutdown settings for rendered Kubernetes manifests" \
      org.opencontainers.image.licenses="Apache-2.0"
USER 65532:65532
ENV NODE_ENV=production
ENTRYPOINT ["/nodejs/bin/node", "/app/cli.js"]

# --- prebuilt (--target prebuilt): dist/ as `npm run build` left it, from a context holding only
# dist/; no network needed (scripts/image/build.sh). Unused by the default build.
FROM runtime AS prebuilt
COPY dist/ /app/

# --- build: the launcher dist/cli.js, the bundle and its V8 code cache (scripts/build.mjs) ---
FROM ${BUILDER} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# esbuild's platform binary comes as an optional dependency; no install scripts are needed.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.mjs scripts/cli-bundle.mjs scripts/
COPY fn/ fn/
# The streams the build runs once to make the code cache (TRAINING in scripts/build.mjs). The cache
# is made by this stage's Node; if the run stage's Node 20 differs, V8 rejects it and the function
# compiles as usual: the same output, a slower start.
COPY examples/quickstart/istio-gateway-nlb.yaml examples/quickstart/istio-gateway-nlb.yaml
COPY examples/manifests/graceful-demo.yaml examples/manifests/graceful-demo.yaml
RUN npm run build

# --- the image (default target): the runtime with the bundle built above ---
FROM runtime
COPY --from=build /src/dist/ /app/
