// Bundles the CLI into one executable ES module, dist/cli.js, so start-up is one file read
// (issue #9: start-up near bare node) and Helm 3 / kpt can run it directly (shebang, mode 755).
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['fn/cli/main.ts'],
  outfile: 'dist/cli.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'linked',
  define: { KUBE_GRACEFUL_VERSION: JSON.stringify(version) },
  // commander is CommonJS; a bundled ES module needs a `require` for it.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __kgRequire } from 'node:module';\nconst require = __kgRequire(import.meta.url);" },
  logLevel: 'warning',
});
chmodSync('dist/cli.js', 0o755);
// The Helm 4 plugin folder carries its own copy (renderer/plugin.yaml runs
// ${HELM_PLUGIN_DIR}/dist/cli.js): `helm plugin install` symlinks the folder and node resolves
// `${HELM_PLUGIN_DIR}/../dist` lexically, so a path outside the folder would not be found.
mkdirSync('renderer/dist', { recursive: true });
copyFileSync('dist/cli.js', 'renderer/dist/cli.js');
chmodSync('renderer/dist/cli.js', 0o755);
