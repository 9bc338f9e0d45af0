#!/usr/bin/env bash
# kustomize container form: `kubectl kustomize --enable-alpha-plugins` runs the image with docker.
# Here there is no Docker engine: the image localhost/kube-graceful:dev is built from this tree with
# podman (scripts/image/build.sh; `npm run image` sets podman and its base up first) and a `docker`
# shim runs podman with kustomize's arguments. KG_REAL_DOCKER=1 uses your docker and an image you
# built as localhost/kube-graceful:dev (README "Container image").
source "$(dirname "$0")/../lib/common.sh"
need kubectl
here="$(cd "$(dirname "$0")" && pwd)"

if [[ "${KG_REAL_DOCKER:-}" != 1 ]]; then
  need podman
  bash "$ROOT/scripts/image/build.sh" >&2
  mkdir -p "$WORK/docker"
  printf '#!/bin/sh\nprintf "%%s\\n" "docker $*" >>"%s"\nexec podman "$@"\n' "$WORK/docker-calls.txt" >"$WORK/docker/docker"
  chmod +x "$WORK/docker/docker"
  export PATH="$WORK/docker:$PATH"
  echo "docker is podman here (no Docker engine); KG_REAL_DOCKER=1 uses a real one" >&2
fi

step "kubectl kustomize (no function) and kubectl kustomize --enable-alpha-plugins (with it)"
kubectl kustomize "$ROOT/examples/manifests" >"$WORK/before.yaml"
kubectl kustomize --enable-alpha-plugins "$here" >"$WORK/after.yaml"
diff -u "$WORK/before.yaml" "$WORK/after.yaml" >&2 || true
[[ ! -f "$WORK/docker-calls.txt" ]] || echo "kustomize ran: $(cat "$WORK/docker-calls.txt")" >&2
expect_gateway_patched "$WORK/after.yaml"
expect_job_patched "$WORK/after.yaml"
expect_same_doc ConfigMap demo-settings "$WORK/before.yaml" "$WORK/after.yaml"

step "without --enable-alpha-plugins kustomize refuses the transformer"
if kubectl kustomize "$here" >/dev/null 2>"$WORK/error.txt"; then die "kubectl kustomize ran a function without --enable-alpha-plugins"; fi
cat "$WORK/error.txt" >&2

ok "kustomize container function: gateway and Job patched, ConfigMap unchanged"
