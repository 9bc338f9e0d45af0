# Sourced by every examples/<path>/run.sh: where things are, isolated tool homes, and checks that
# fail the script when the output did not change as expected.
#
#   HELM3, HELM4   Helm 3 and Helm 4 binaries (default: .cache/tools/helm3|helm4, installed by
#                  `bash scripts/fetch-helm.sh`)
#   CHART          the chart to render (default: the test chart test/fixtures/charts/graceful-demo)
#   KEEP=1         keep the work folder (printed at the end) to look at the outputs
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CHART="${CHART:-$ROOT/test/fixtures/charts/graceful-demo}"
HELM3="${HELM3:-$ROOT/.cache/tools/helm3}"
HELM4="${HELM4:-$ROOT/.cache/tools/helm4}"
# The bundled CLI, as `npm install kube-graceful` installs it (bin `kube-graceful` -> dist/cli.js).
KUBE_GRACEFUL="$ROOT/dist/cli.js"

die() {
  echo "FAIL ($(basename "$(dirname "$0")")): $*" >&2
  exit 1
}
step() { printf '\n== %s\n' "$*" >&2; }

need() {
  local tool
  for tool in "$@"; do
    [[ -x "$tool" ]] || command -v "$tool" >/dev/null 2>&1 ||
      die "$tool not found (Helm: run \`bash scripts/fetch-helm.sh\` or set HELM3/HELM4; kubectl and kpt come with the machine image)"
  done
}

# The bundle must exist; build it once if it does not.
if [[ ! -x "$KUBE_GRACEFUL" ]]; then
  (cd "$ROOT" && npm run build --silent)
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/kube-graceful-example.XXXXXX")"
if [[ "${KEEP:-}" == 1 ]]; then
  trap 'echo "outputs kept in $WORK" >&2' EXIT
else
  trap 'rm -rf "$WORK"' EXIT
fi
# Helm never touches the user's own config, cache or plugins here.
export HELM_CACHE_HOME="$WORK/helm/cache" HELM_CONFIG_HOME="$WORK/helm/config" HELM_DATA_HOME="$WORK/helm/data"
unset HELM_PLUGINS

# A bin folder with `kube-graceful` in it, as `npm install -g kube-graceful` would provide.
BIN="$WORK/bin"
mkdir -p "$BIN"
ln -s "$KUBE_GRACEFUL" "$BIN/kube-graceful"

# doc KIND NAME FILE: prints the one document of that kind and name from a YAML stream.
doc() {
  awk -v kind="$1" -v name="$2" '
    function flush() { if (buf ~ ("\nkind: " kind "\n") && buf ~ ("\n  name: " name "\n")) printf "%s", buf; buf = "\n" }
    BEGIN { buf = "\n" }
    /^---/ { flush(); next }
    { buf = buf $0 "\n" }
    END { flush() }' "$3"
}

# Checks on the demo chart's resources; each fails the script with what was expected.
expect_gateway_patched() { # FILE
  local d
  d="$(doc Deployment demo-gateway "$1")"
  [[ -n "$d" ]] || die "$1: no Deployment demo-gateway"
  grep -q 'name: MINIMUM_DRAIN_DURATION' <<<"$d" || die "$1: gateway istio-proxy has no MINIMUM_DRAIN_DURATION"
  grep -q 'name: EXIT_ON_ZERO_ACTIVE_CONNECTIONS' <<<"$d" || die "$1: gateway istio-proxy has no EXIT_ON_ZERO_ACTIVE_CONNECTIONS"
  grep -Eq 'terminationGracePeriodSeconds: [0-9]+' <<<"$d" || die "$1: gateway has no terminationGracePeriodSeconds"
}
expect_job_patched() { # FILE
  local d
  d="$(doc Job demo-migrate "$1")"
  [[ -n "$d" ]] || die "$1: no Job demo-migrate"
  grep -Eq 'sidecar.istio.io/nativeSidecar: "(true|false)"|kube-graceful-wrap' <<<"$d" || die "$1: the hook Job's sidecar is not handled"
}
expect_job_untouched() { # FILE
  local d
  d="$(doc Job demo-migrate "$1")"
  [[ -n "$d" ]] || die "$1: no Job demo-migrate"
  ! grep -Eq 'nativeSidecar|kube-graceful-wrap' <<<"$d" || die "$1: the hook Job was changed"
}
expect_same_doc() { # KIND NAME BEFORE AFTER
  [[ "$(doc "$1" "$2" "$3")" == "$(doc "$1" "$2" "$4")" ]] || die "$1 $2 differs between $3 and $4"
}
ok() { printf '\nOK: %s\n' "$*" >&2; }
