#!/usr/bin/env bash
# kustomize container form: `kubectl kustomize --enable-alpha-plugins` runs the image with docker.
# Without a Docker engine (this machine), a stand-in `docker` (examples/lib/standin-docker) runs the
# image's entrypoint locally; set KG_REAL_DOCKER=1 to use your docker and a built image.
source "$(dirname "$0")/../lib/common.sh"
need kubectl
here="$(cd "$(dirname "$0")" && pwd)"

if [[ "${KG_REAL_DOCKER:-}" != 1 ]]; then
  mkdir -p "$WORK/docker"
  ln -s "$ROOT/examples/lib/standin-docker" "$WORK/docker/docker"
  export PATH="$WORK/docker:$PATH" KG_DOCKER_LOG="$WORK/docker-calls.txt"
  echo "using the stand-in docker (no Docker engine here); KG_REAL_DOCKER=1 uses a real one" >&2
fi

step "kubectl kustomize (no function) and kubectl kustomize --enable-alpha-plugins (with it)"
kubectl kustomize "$ROOT/examples/manifests" >"$WORK/before.yaml"
kubectl kustomize --enable-alpha-plugins "$here" >"$WORK/after.yaml"
diff -u "$WORK/before.yaml" "$WORK/after.yaml" >&2 || true
[[ -z "${KG_DOCKER_LOG:-}" ]] || echo "docker was called as: docker $(cat "$KG_DOCKER_LOG")" >&2
expect_gateway_patched "$WORK/after.yaml"
expect_job_patched "$WORK/after.yaml"
expect_same_doc ConfigMap demo-settings "$WORK/before.yaml" "$WORK/after.yaml"

step "without --enable-alpha-plugins kustomize refuses the transformer"
if kubectl kustomize "$here" >/dev/null 2>"$WORK/error.txt"; then die "kubectl kustomize ran a function without --enable-alpha-plugins"; fi
cat "$WORK/error.txt" >&2

ok "kustomize container function: gateway and Job patched, ConfigMap unchanged"
