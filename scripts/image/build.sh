#!/usr/bin/env bash
# Builds localhost/kube-graceful:dev from the working tree: dist/ as `npm run build` left it, on the
# base made from Debian packages (base.sh), with podman. The context holds dist/ and nothing else
# (the Dockerfile's `prebuilt` target), so nothing is fetched and an unchanged dist/ is one cached
# layer.
# Concurrent callers (test files run in parallel) take turns on a lock; the later ones find the
# layers built.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
image="${KUBE_GRACEFUL_IMAGE:-localhost/kube-graceful:dev}"
base="${KUBE_GRACEFUL_BASE_IMAGE:-localhost/kube-graceful-base:node20-trixie}"
[ -f "$root/dist/cli.js" ] || { echo "image build: $root/dist/cli.js is missing: run npm run build first" >&2; exit 1; }
podman image exists "$base" || { echo "image build: no base image $base: run bash scripts/image/base.sh (or npm run image)" >&2; exit 1; }
context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT
# dist/ as the npm package ships it (package.json "files"): not the single executable that
# `npm run binary` adds there, 100 MB the image has no use for.
mkdir "$context/dist"
cp "$root"/dist/cli.js "$root"/dist/package.json "$root"/dist/kube-graceful.*.cjs \
  "$root"/dist/kube-graceful.*.v8cache "$context/dist/"
exec 9>"${TMPDIR:-/tmp}/kube-graceful-image-build.lock"
flock 9
previous="$(podman image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)"
podman build --quiet --pull=never --network=none \
  --build-arg "BASE=$base" --target prebuilt \
  --file "$root/Dockerfile" --tag "$image" "$context" >/dev/null
# The image of an earlier dist/, now untagged: removed, so rebuilds do not pile up (kept if a
# container still uses it).
if [ -n "$previous" ] && [ "$previous" != "$(podman image inspect --format '{{.Id}}' "$image")" ] &&
  [ "$(podman image inspect --format '{{len .RepoTags}}' "$previous" 2>/dev/null)" = 0 ]; then
  podman rmi "$previous" >/dev/null 2>&1 || true
fi
echo "image: $image ($(podman image inspect --format '{{.Id}}' "$image" | cut -c1-12)) on $base"
