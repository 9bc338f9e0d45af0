// Which folder of fn/ may import which: the layers point down, and no folder cycles.
//
//   fn/cli                                  the commands; imported by nothing
//   fn/engine  fn/explain  fn/report        the run, and what it says about itself
//   fn/mutators/<id>/                       one mutator each; may use fn/mutators/shared/
//   ... the folders in between (document, stream, krm, workloads, config, yaml, compat)
//   fn/timing                               the pure timing model: imports fn/core only
//   fn/core                                 shared types (errors, changes, refs, versions,
//                                           field paths): imports nothing of the project
//
// dependency-cruiser (not ESLint) holds these rules because it sees the graph between folders,
// which a per-file lint rule cannot. Type-only imports count: a layer that needs another's types
// depends on it.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-nothing',
      comment: 'fn/core is the bottom layer: it imports nothing of the project.',
      severity: 'error',
      from: { path: '^fn/core/' },
      to: { path: '^(fn|renderer|scripts|test)/', pathNot: '^fn/core/' },
    },
    {
      name: 'timing-imports-only-core',
      comment: 'The timing model is pure: no workload, mutator or engine code, only fn/core.',
      severity: 'error',
      from: { path: '^fn/timing/' },
      to: { path: '^(fn|renderer|scripts|test)/', pathNot: '^fn/(core|timing)/' },
    },
    {
      name: 'mutator-imports-no-other-mutator',
      comment:
        'A mutator is one folder: it may use fn/mutators/shared/ and the layers below, never ' +
        "another mutator's folder. A new mutator then touches no other.",
      severity: 'error',
      from: { path: '^fn/mutators/([^/]+)/' },
      to: { path: '^fn/mutators/[^/]+/', pathNot: '^fn/mutators/($1|shared)/' },
    },
    {
      name: 'upper-layers-from-above-only',
      comment:
        'fn/engine runs everything; fn/explain, fn/report and fn/cli speak about a run. Nothing ' +
        'below them may import them.',
      severity: 'error',
      from: { path: '^fn/', pathNot: '^fn/(engine|explain|report|cli)/' },
      to: { path: '^fn/(engine|explain|report|cli)/' },
    },
    {
      name: 'cli-imported-by-nothing',
      comment: 'fn/cli is the top: the commands and their options. Tests may drive it.',
      severity: 'error',
      from: { path: '^fn/', pathNot: '^fn/cli/' },
      to: { path: '^fn/cli/' },
    },
    {
      name: 'no-folder-cycles',
      comment: 'Folders form layers: if a folder imports another, that one never imports it back.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^fn/' },
      to: { circular: true },
    },
    {
      name: 'no-module-cycles',
      comment: 'Within a folder too, modules import in one direction.',
      severity: 'error',
      from: { path: '^fn/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js', '.json'] },
  },
};
