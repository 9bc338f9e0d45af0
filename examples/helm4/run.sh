#!/usr/bin/env bash
# Helm 4: the post-renderer plugin in renderer/ (Helm 4 takes plugin names only). Hooks are
# post-rendered. Helm 4 never shows a plugin's stderr: errors go to --log-file / KUBE_GRACEFUL_LOG_FILE.
source "$(dirname "$0")/../lib/common.sh"
need "$HELM4"

step "helm plugin install $ROOT/renderer (from the npm package: \$(npm root -g)/kube-graceful/renderer)"
"$HELM4" plugin install "$ROOT/renderer" >&2
"$HELM4" plugin list >&2

step "helm template with and without --post-renderer kube-graceful"
"$HELM4" template demo "$CHART" >"$WORK/before.yaml"
"$HELM4" template demo "$CHART" --post-renderer kube-graceful \
  --post-renderer-args --report --post-renderer-args "$WORK/report.txt" >"$WORK/after.yaml"
# Helm 4 re-indents lists of every post-rendered document, so compare with -w.
diff -uw "$WORK/before.yaml" "$WORK/after.yaml" >&2 || true
head -n 1 "$WORK/report.txt" >&2
expect_gateway_patched "$WORK/after.yaml"
expect_job_patched "$WORK/after.yaml" # hooks included in Helm 4
grep -q '^# Source: graceful-demo/templates/deployment.yaml' "$WORK/after.yaml" || die "Helm lost the template file names"
! grep -q 'postrenderer.helm.sh/postrender-filename' "$WORK/after.yaml" || die "Helm's bookkeeping annotation leaked into the output"

step "errors: Helm 4 prints only 'exited with error'; our message is in the log file"
if KUBE_GRACEFUL_LOG_FILE="$WORK/kube-graceful.log" "$HELM4" template demo "$CHART" --post-renderer kube-graceful \
  --post-renderer-args --drain-window --post-renderer-args soon >/dev/null 2>"$WORK/error.txt"; then
  die "helm succeeded with --drain-window soon"
fi
cat "$WORK/error.txt" >&2
grep -q 'drain-window: got "soon"' "$WORK/kube-graceful.log" || die "no message in the log file"
echo "log file: $(cat "$WORK/kube-graceful.log")" >&2

ok "Helm 4 plugin: gateway and hook Job patched, file names kept, errors in the log file"
