#!/usr/bin/env bash
# kpt fn eval with the exec form: stdin -> stdout, and in place on a package folder with settings
# as `-- key=value` (a ConfigMap functionConfig). kpt keeps file names and comments.
source "$(dirname "$0")/../lib/common.sh"
need kpt
here="$(cd "$(dirname "$0")" && pwd)"

step "kpt fn eval - --exec kube-graceful -o unwrap < manifests (stdin to stdout)"
kpt fn eval - --exec "$KUBE_GRACEFUL" -o unwrap <"$ROOT/examples/manifests/graceful-demo.yaml" >"$WORK/after.yaml"
expect_gateway_patched "$WORK/after.yaml"
expect_job_patched "$WORK/after.yaml"
expect_same_doc ConfigMap demo-settings "$ROOT/examples/manifests/graceful-demo.yaml" "$WORK/after.yaml"

step "kpt fn eval PACKAGE --exec kube-graceful -- kube-version=1.28 (in place)"
cp -R "$here/package" "$WORK/package"
kpt fn eval "$WORK/package" --exec "$KUBE_GRACEFUL" --results-dir "$WORK/results" -- kube-version=1.28 lb-provider=aws-nlb-ip
diff -ru "$here/package" "$WORK/package" >&2 || true
[[ "$(cd "$here/package" && ls)" == "$(cd "$WORK/package" && ls)" ]] || die "kpt renamed files"
cmp -s "$here/package/settings.yaml" "$WORK/package/settings.yaml" || die "settings.yaml changed"
head -n 1 "$WORK/package/gateway.yaml" | grep -q '^# The ingress gateway' || die "gateway.yaml lost its comment"
expect_gateway_patched "$WORK/package/gateway.yaml"
# Kubernetes 1.28 has no native sidecars on by default: the Job's command is wrapped instead.
grep -q 'kube-graceful-wrap' "$WORK/package/migrate-job.yaml" || die "kube-version=1.28 did not reach kube-graceful"
grep -q 'severity: info' "$WORK/results/results.yaml" || die "no results in $WORK/results/results.yaml"

step "an error finding: kpt fails, prints our result, and leaves the package as it was"
cp -R "$here/package" "$WORK/broken"
# A per-workload setting that cannot be read, on the gateway Deployment: an error finding.
awk '{ print } /^kind: Deployment$/ { d = 1 } d && /^metadata:$/ { print "  annotations:"; print "    kube-graceful.dev/drain-window: \"soon\""; d = 0 }' \
  "$here/package/gateway.yaml" >"$WORK/broken/gateway.yaml"
cp "$WORK/broken/gateway.yaml" "$WORK/broken-gateway.yaml"
if kpt fn eval "$WORK/broken" --exec "$KUBE_GRACEFUL" >"$WORK/error.txt" 2>&1; then die "kpt succeeded despite an error result"; fi
grep -q 'BAD_ANNOTATION\|drain-window' "$WORK/error.txt" || die "kpt did not show our error: $(cat "$WORK/error.txt")"
grep -A1 '\[error\]' "$WORK/error.txt" >&2 || true
cmp -s "$WORK/broken-gateway.yaml" "$WORK/broken/gateway.yaml" || die "kpt wrote the package despite the error"

ok "kpt fn eval --exec: stdin and package, settings through key=value, errors fail kpt"
