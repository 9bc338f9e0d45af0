#!/bin/sh
# `npm run example`: what a newcomer wants first. Why (the shutdown as written and as patched, with
# the numbers and where each came from), then what changed (a diff), then how to get the stream.
set -eu
cd "$(dirname "$0")"
cli="node ../../dist/cli.js"
file=istio-gateway-nlb.yaml
printf '\n== 1. Why: kube-graceful explain %s\n\n' "$file"
$cli explain "$file"
printf '\n== 2. What changes: kube-graceful %s --diff\n\n' "$file"
$cli "$file" --diff
printf '\n== 3. The patched stream: kube-graceful %s > patched.yaml (or pipe helm template into kube-graceful)\n' "$file"
