#!/usr/bin/env bash
# The base image the tests build kube-graceful's image on: Node 20 from Debian packages, since
# public image registries are not reachable here (the Dockerfile's default base is distroless).
#
#   mmdebstrap --variant=minbase --include=nodejs trixie   (trixie's nodejs is 20.19)
#   podman import                                           -> localhost/kube-graceful-base:node20-trixie
#
# It lays node out as distroless does (/nodejs/bin/node, the Dockerfile's ENTRYPOINT), and keeps
# minbase's `nobody`, which kustomize and kpt run containers as. About 3 minutes on 2 cores, so
# podman's storage is the cache: an image of this name is reused, never rebuilt
# (KUBE_GRACEFUL_BASE_REBUILD=1 forces it, e.g. after changing this recipe: then bump the tag).
set -euo pipefail
image="${KUBE_GRACEFUL_BASE_IMAGE:-localhost/kube-graceful-base:node20-trixie}"
suite=trixie
mirror="${KUBE_GRACEFUL_DEBIAN_MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)}"
mirror="${mirror:-http://deb.debian.org/debian}"

if [ "${KUBE_GRACEFUL_BASE_REBUILD:-}" != 1 ] && podman image exists "$image"; then
  echo "base image: $image (cached in podman storage)"
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
start=$SECONDS
echo "base image: building $image from Debian $suite ($mirror); takes a few minutes, once per machine"
mmdebstrap --quiet --variant=minbase --include=nodejs \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt=force-unsafe-io \
  --customize-hook='mkdir -p "$1/nodejs/bin" && ln -s /usr/bin/node "$1/nodejs/bin/node"' \
  "$suite" "$work/rootfs.tar" "$mirror"
podman import --quiet \
  --change 'ENV PATH=/nodejs/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'USER 65532:65532' \
  --change 'ENTRYPOINT ["/nodejs/bin/node"]' \
  "$work/rootfs.tar" "$image" >/dev/null
version="$(podman run --rm --network none --user nobody "$image" --version)"
case "$version" in
  v20.*) ;;
  *) echo "base image: Debian $suite gave node $version, not Node 20; set KUBE_GRACEFUL_BASE_IMAGE to a Node 20 base" >&2; podman rmi "$image" >/dev/null; exit 1 ;;
esac
echo "base image: $image with node $version, built in $((SECONDS - start)) s"
