#!/usr/bin/env bash
# `npm run image`: sets up what is missing (podman and its settings, the Node 20 base made from
# Debian packages; scripts/image/) and builds localhost/kube-graceful:dev from the working tree.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/image/setup-podman.sh
bash scripts/image/base.sh
npm run build --silent
bash scripts/image/build.sh
