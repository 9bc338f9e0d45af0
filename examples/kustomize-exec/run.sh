#!/usr/bin/env bash
# kustomize exec form. With a standalone kustomize (on PATH or KUSTOMIZE=…) it runs
#   kustomize build --enable-alpha-plugins --enable-exec .
# None is obtainable on this machine, so by default it shows (1) that `kubectl kustomize`
# silently skips the exec function, and (2) the function run on exactly the ResourceList kustomize
# sends it (items + this config as functionConfig, built with `kpt fn source`).
source "$(dirname "$0")/../lib/common.sh"
need kubectl
here="$(cd "$(dirname "$0")" && pwd)"
kustomize="${KUSTOMIZE:-$(command -v kustomize || true)}"

kubectl kustomize "$ROOT/examples/manifests" >"$WORK/before.yaml"

if [[ -n "$kustomize" ]]; then
  step "$kustomize build --enable-alpha-plugins --enable-exec"
  "$kustomize" build --enable-alpha-plugins --enable-exec "$here" >"$WORK/after.yaml"
  diff -u "$WORK/before.yaml" "$WORK/after.yaml" >&2 || true
  expect_gateway_patched "$WORK/after.yaml"
  expect_job_patched "$WORK/after.yaml"
  expect_same_doc ConfigMap demo-settings "$WORK/before.yaml" "$WORK/after.yaml"
  ok "kustomize exec function: gateway and Job patched, ConfigMap unchanged"
  exit 0
fi

echo "no standalone kustomize found (set KUSTOMIZE=/path/to/kustomize to run it for real)" >&2
need kpt

step "the trap: kubectl kustomize --enable-alpha-plugins skips exec functions, exit 0, nothing changed"
kubectl kustomize --enable-alpha-plugins "$here" >"$WORK/skipped.yaml"
cmp -s "$WORK/before.yaml" "$WORK/skipped.yaml" ||
  die "kubectl kustomize now runs exec functions: update the READMEs (and this check)"

step "the function on the ResourceList kustomize would send (items, functionConfig = graceful.yaml)"
mkdir -p "$WORK/items"
cp "$WORK/before.yaml" "$WORK/items/resources.yaml"
kpt fn source "$WORK/items" --fn-config "$here/graceful.yaml" >"$WORK/resource-list.yaml"
(cd "$here" && "$(sed -n 's/^ *path: //p' graceful.yaml)") <"$WORK/resource-list.yaml" >"$WORK/result-list.yaml"
grep -q '^kind: ResourceList' "$WORK/result-list.yaml" || die "no ResourceList out"
grep -q 'severity: info' "$WORK/result-list.yaml" || die "no results in the ResourceList"
kpt fn sink "$WORK/out" <"$WORK/result-list.yaml"
diff -u "$WORK/items/resources.yaml" "$WORK/out/resources.yaml" >&2 || true
expect_gateway_patched "$WORK/out/resources.yaml"
expect_job_patched "$WORK/out/resources.yaml"
expect_same_doc ConfigMap demo-settings "$WORK/items/resources.yaml" "$WORK/out/resources.yaml"

ok "kustomize exec function (emulated: kubectl kustomize skips it, as documented)"
