#!/usr/bin/env bash
# kpt fn render: the package's Kptfile runs kube-graceful as an exec mutator (--allow-exec).
# `exec: kube-graceful` is found on PATH; a relative path would be resolved from the directory kpt
# runs in, not from the Kptfile's folder (shown below).
source "$(dirname "$0")/../lib/common.sh"
need kpt
here="$(cd "$(dirname "$0")" && pwd)"
export PATH="$BIN:$PATH" # kube-graceful on PATH, as after `npm install -g kube-graceful`

step "kpt fn render PACKAGE --allow-exec"
cp -R "$here/package" "$WORK/package"
kpt fn render "$WORK/package" --allow-exec
diff -ru "$here/package" "$WORK/package" >&2 || true
expect_gateway_patched "$WORK/package/gateway.yaml"
expect_job_patched "$WORK/package/migrate-job.yaml"
cmp -s "$here/package/settings.yaml" "$WORK/package/settings.yaml" || die "settings.yaml changed"
head -n 1 "$WORK/package/gateway.yaml" | grep -q '^# The ingress gateway' || die "gateway.yaml lost its comment"

step "rendering again changes nothing (the settings are already right)"
cp -R "$WORK/package" "$WORK/once"
kpt fn render "$WORK/package" --allow-exec
diff -r "$WORK/once" "$WORK/package" >&2 || die "a second render changed the package"

step "a relative exec path is resolved from the current directory"
cp -R "$here/package" "$WORK/relative"
sed -i.bak 's|exec: kube-graceful|exec: ./bin/kube-graceful|' "$WORK/relative/Kptfile" && rm "$WORK/relative/Kptfile.bak"
(cd "$WORK" && kpt fn render relative --allow-exec) # ./bin is $WORK/bin: works
if (cd "$WORK/relative" && kpt fn render . --allow-exec >/dev/null 2>&1); then
  die "exec: ./bin/kube-graceful ran from inside the package: kpt now resolves it from the Kptfile"
fi
echo "from inside the package ./bin/kube-graceful is not found: prefer a name on PATH" >&2

ok "kpt fn render --allow-exec with a Kptfile mutator: gateway and Job patched, idempotent"
