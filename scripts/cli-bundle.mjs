// The esbuild options of the CLI's bundle, shared by the two ways it ships: dist/ with its
// launcher and code cache (scripts/build.mjs) and the single executable (scripts/binary.mjs). Both
// bundle every package the CLI imports, so nothing is left to install at run time.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

export const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'linked',
  logLevel: 'warning',
};

/**
 * commander requires node:child_process when loaded, for executable subcommands we do not have;
 * node:child_process loads node:net and node:dgram, a few milliseconds of every start. Commander
 * gets a stand-in that requires the real module on first use.
 */
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'child_process', namespace: 'lazy' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents:
        "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

/**
 * The commit the bundle is built from, for `kube-graceful version` (issue #28): `-dirty` when
 * tracked files differ from it, `unknown` outside a git checkout (a build from the npm tarball).
 */
function gitCommit() {
  const head = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' });
  if (head.status !== 0) return 'unknown';
  const dirty = spawnSync('git', ['diff', '--quiet', 'HEAD', '--']).status === 1;
  return `${head.stdout.trim()}${dirty ? '-dirty' : ''}`;
}

/**
 * Returns the esbuild options that bundle the CLI from `entry` into one CommonJS file `outfile`:
 * vm.Script (the launcher) and Node's single executables both run scripts, not ES modules.
 */
export function cliBundle(entry, outfile) {
  return {
    ...common,
    entryPoints: [entry],
    outfile,
    format: 'cjs',
    plugins: [lazyChildProcessForCommander],
    define: {
      KUBE_GRACEFUL_VERSION: JSON.stringify(version),
      KUBE_GRACEFUL_COMMIT: JSON.stringify(gitCommit()),
    },
  };
}
