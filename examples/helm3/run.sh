#!/usr/bin/env bash
# Helm 3: kube-graceful as --post-renderer, by path and by name on PATH; flags through
# --post-renderer-args. Helm 3 never post-renders hooks (helm/helm#7891): shown, then the workaround.
source "$(dirname "$0")/../lib/common.sh"
need "$HELM3"

step "helm template without a post-renderer (the baseline)"
"$HELM3" template demo "$CHART" >"$WORK/before.yaml"

step "helm template --post-renderer <path> (report through --post-renderer-args: Helm 3 drops stderr on success)"
"$HELM3" template demo "$CHART" --post-renderer "$KUBE_GRACEFUL" \
  --post-renderer-args --report --post-renderer-args "$WORK/report.txt" >"$WORK/after.yaml"
diff -u "$WORK/before.yaml" "$WORK/after.yaml" >&2 || true
head -n 1 "$WORK/report.txt" >&2
expect_gateway_patched "$WORK/after.yaml"
expect_same_doc ConfigMap demo-settings "$WORK/before.yaml" "$WORK/after.yaml"
expect_same_doc Service demo-gateway "$WORK/before.yaml" "$WORK/after.yaml"
# The hook Job never reached kube-graceful:
expect_job_untouched "$WORK/after.yaml"

step "helm template --post-renderer kube-graceful (bare name, found on PATH) with flags"
PATH="$BIN:$PATH" "$HELM3" template demo "$CHART" --post-renderer kube-graceful \
  --post-renderer-args --lb-provider --post-renderer-args aws-nlb-ip >"$WORK/by-name.yaml"
expect_gateway_patched "$WORK/by-name.yaml"

step "workaround for hooks: helm template | kube-graceful (then kubectl apply -f -)"
"$HELM3" template demo "$CHART" | "$KUBE_GRACEFUL" >"$WORK/piped.yaml"
expect_gateway_patched "$WORK/piped.yaml"
expect_job_patched "$WORK/piped.yaml"

step "a bad flag (exit 2) fails helm, which shows our message"
if "$HELM3" template demo "$CHART" --post-renderer "$KUBE_GRACEFUL" \
  --post-renderer-args --drain-window --post-renderer-args soon >/dev/null 2>"$WORK/error.txt"; then
  die "helm succeeded with --drain-window soon"
fi
grep -q 'drain-window: got "soon"' "$WORK/error.txt" || die "helm did not show our message: $(cat "$WORK/error.txt")"
cat "$WORK/error.txt" >&2

ok "Helm 3 post-renderer: gateway patched, ConfigMap/Service unchanged, hook Job only through the pipe"
