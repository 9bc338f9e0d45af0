#!/usr/bin/env bash
# Argo CD config-management plugin: runs cmp-plugin.yaml's init and generate commands the way the
# CMP server does (in the app's source folder, with the ARGOCD_* variables, `sh -c`), with the
# Helm 3 binary as `helm`. HELM=$HELM4 tries Helm 4.
source "$(dirname "$0")/../lib/common.sh"
helm="${HELM:-$HELM3}"
need "$helm" node
here="$(cd "$(dirname "$0")" && pwd)"
ln -s "$helm" "$BIN/helm"

# The commands, read from the plugin's YAML with the project's YAML library.
script() { # init|generate
  (cd "$ROOT" && node --input-type=module -e '
    import { readFileSync } from "node:fs"; import { parse } from "yaml";
    const spec = parse(readFileSync(process.argv[1], "utf8")).spec[process.argv[2]];
    if (spec.command.join(" ") !== "sh -c") throw new Error("expected sh -c");
    process.stdout.write(spec.args[0]);' "$here/cmp-plugin.yaml" "$1")
}
cp -R "$CHART" "$WORK/app"
cmp_env=(env PATH="$BIN:$PATH" ARGOCD_APP_NAME=demo ARGOCD_APP_NAMESPACE=default KUBE_VERSION=1.31+
  ARGOCD_ENV_HELM_ARGS="--values values.yaml" ARGOCD_ENV_KUBE_GRACEFUL_ARGS="--lb-provider aws-nlb-ip")

step "init, then generate (in the app folder)"
(cd "$WORK/app" && "${cmp_env[@]}" sh -c "$(script init)")
(cd "$WORK/app" && "${cmp_env[@]}" sh -c "$(script generate)") >"$WORK/manifests.yaml"
(cd "$WORK/app" && "$helm" template demo . --namespace default) >"$WORK/before.yaml"
diff -u "$WORK/before.yaml" "$WORK/manifests.yaml" >&2 || true
expect_gateway_patched "$WORK/manifests.yaml"
expect_job_patched "$WORK/manifests.yaml" # hooks are in the stream Argo CD applies
expect_same_doc ConfigMap demo-settings "$WORK/before.yaml" "$WORK/manifests.yaml"

step "the oldest kubelet comes from plugin env KUBELET_VERSION, not the API server's version"
(cd "$WORK/app" && "${cmp_env[@]}" sh -c "$(script generate)") 2>"$WORK/fallback.txt" >/dev/null
grep -q "KUBELET_VERSION not set; using the API server's version 1.31" "$WORK/fallback.txt" \
  || die "no warning when KUBELET_VERSION is unset"
(cd "$WORK/app" && "${cmp_env[@]}" ARGOCD_ENV_KUBELET_VERSION=1.28 sh -c "$(script generate)") \
  >"$WORK/kubelet-1.28.yaml" 2>"$WORK/kubelet.txt"
! grep -q "KUBELET_VERSION not set" "$WORK/kubelet.txt" || die "warned with KUBELET_VERSION set"
# A 1.28 kubelet has native sidecars off by default: the hook Job gets the command wrapper.
grep -q kube-graceful-wrap <<<"$(doc Job demo-migrate "$WORK/kubelet-1.28.yaml")" \
  || die "KUBELET_VERSION=1.28 did not reach kube-graceful"
! grep -q kube-graceful-wrap <<<"$(doc Job demo-migrate "$WORK/manifests.yaml")" \
  || die "the 1.31 default should give native sidecars"

step "a failing helm fails generate (no empty output that would prune the app)"
mkdir -p "$WORK/broken" && printf 'apiVersion: v2\nname: broken\nversion: 0.1.0\n' >"$WORK/broken/Chart.yaml"
: >"$WORK/broken/values.yaml"
mkdir -p "$WORK/broken/templates" && printf '{{ fail "broken chart" }}\n' >"$WORK/broken/templates/x.yaml"
if (cd "$WORK/broken" && "${cmp_env[@]}" sh -c "$(script generate)") >"$WORK/broken.yaml" 2>"$WORK/error.txt"; then
  die "generate succeeded on a failing chart"
fi
[[ ! -s "$WORK/broken.yaml" ]] || die "generate printed output for a failing chart"
cat "$WORK/error.txt" >&2

ok "Argo CD CMP: helm template + kube-graceful, hooks patched, failures fail"
