// Which folder of fn/ may import which: the layers point down, and no folder cycles
// (docs/ARCHITECTURE.md draws the same picture).
//
//   fn/cli                                  the commands; imported by nothing
//   fn/explain  fn/report                   what a run says about itself
//   fn/engine                               the run
//   fn/krm  fn/stream                       the input and output formats
//   fn/mutators/registry.ts, <id>/, shared/ one mutator each; may use fn/mutators/shared/
//   fn/explanation  fn/compat               the explaining kit; the compatibility table
//   fn/workloads                            recognising workloads, meshes, proxies
//   fn/config                               the typed config: composes the slices below
//   fn/mutators/<id>/settings/              a mutator's config slice (zod + fn/config/kit only)
//   fn/config/kit                           what a slice is built with
//   fn/document                             one document, its pre-scan and its edits
//   fn/yaml  fn/timing  fn/facts            yaml's options; the pure timing model; upstream
//                                           facts as data (version gates): fn/core only
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
      comment:
        'The timing model is pure: no workload, mutator or engine code, only fn/core and the ' +
        'upstream facts of fn/facts.',
      severity: 'error',
      from: { path: '^fn/timing/' },
      to: { path: '^(fn|renderer|scripts|test)/', pathNot: '^fn/(core|facts|timing)/' },
    },
    {
      name: 'facts-import-only-core',
      comment:
        'fn/facts holds upstream facts as data (version gates) for the decisions, the checks ' +
        'and the compatibility table alike: it imports only fn/core.',
      severity: 'error',
      from: { path: '^fn/facts/' },
      to: { path: '^(fn|renderer|scripts|test)/', pathNot: '^fn/(core|facts)/' },
    },
    {
      name: 'mutator-imports-no-other-mutator',
      comment:
        'A mutator is one folder: it may use fn/mutators/shared/ and the layers below, ' +
        "never another mutator's folder. A new mutator then touches no other.",
      severity: 'error',
      from: { path: '^fn/mutators/([^/]+)/' },
      to: { path: '^fn/mutators/[^/]+/', pathNot: '^fn/mutators/($1|shared)/' },
    },
    {
      name: 'upper-layers-from-above-only',
      comment:
        'fn/engine runs everything; fn/explain, fn/report and fn/cli speak about a run. ' +
        'Nothing below them may import them.',
      severity: 'error',
      from: { path: '^fn/', pathNot: '^fn/(engine|explain|report|cli)/' },
      to: { path: '^fn/(engine|explain|report|cli)/' },
    },
    {
      name: 'formats-from-above-only',
      comment:
        'fn/stream and fn/krm read and write the whole input for fn/engine; ' +
        'the mutators and everything they use work on one workload and never import them.',
      severity: 'error',
      from: { path: '^fn/', pathNot: '^fn/(stream|krm|engine|explain|report|cli)/' },
      to: { path: '^fn/(stream|krm)/' },
    },
    {
      name: 'settings-slice-imports-only-kit',
      comment:
        "A mutator's settings slice is composed by fn/config, so it sits below it: " +
        'it imports only zod and fn/config/kit/, ' +
        'and the mutator folder it lives in imports it, never the reverse.',
      severity: 'error',
      from: { path: '^fn/mutators/[^/]+/settings/' },
      to: {
        path: '^(fn|renderer|scripts|test)/',
        pathNot: '^fn/(config/kit|mutators/[^/]+/settings)/',
      },
    },
    {
      name: 'config-kit-imports-only-core',
      comment:
        'fn/config/kit is below the slices: ' +
        'it imports fn/core and the pure timing model at most (the longest duration a ' +
        "setting may hold is the model's).",
      severity: 'error',
      from: { path: '^fn/config/kit/' },
      to: { path: '^(fn|renderer|scripts|test)/', pathNot: '^fn/(core|timing|config/kit)/' },
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
