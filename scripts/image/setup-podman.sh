#!/usr/bin/env bash
# Makes podman usable here without a Docker daemon: the Debian packages, then the engine settings
# in scripts/image/containers.conf. Idempotent: installs only what is missing, and never rewrites
# an administrator's /etc/containers/containers.conf (our settings then go in a drop-in, which
# podman reads after it: containers.conf(5) of podman 4.3, "containers.conf.d").
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

# podman-docker is left out: its /usr/bin/docker would be shadowed here by a docker client in
# /usr/local/bin, and the tests put their own `docker` → podman shim first on PATH.
packages=(podman buildah uidmap fuse-overlayfs slirp4netns runc mmdebstrap)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "image setup: missing Debian packages: ${missing[*]}; install them as root (apt-get install --no-install-recommends ${missing[*]})" >&2
    exit 1
  fi
  echo "image setup: installing ${missing[*]}"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

conf=/etc/containers/containers.conf
dropin=/etc/containers/containers.conf.d/50-kube-graceful.conf
if [ -e "$conf" ] && cmp -s "$here/containers.conf" "$conf"; then
  : # ours, as written by an earlier run
elif [ -e "$dropin" ] && cmp -s "$here/containers.conf" "$dropin"; then
  : # merged into an administrator's file by an earlier run
elif [ "$(id -u)" != 0 ]; then
  echo "image setup: podman needs the settings of $here/containers.conf in $conf; add them as root" >&2
  exit 1
elif [ ! -e "$conf" ]; then
  install -D -m 644 "$here/containers.conf" "$conf"
  echo "image setup: wrote $conf"
else
  install -D -m 644 "$here/containers.conf" "$dropin"
  echo "image setup: $conf is someone else's: kept it, our settings are in $dropin"
fi
echo "podman: $(podman --version), runtime $(podman info --format '{{.Host.OCIRuntime.Name}}')"
