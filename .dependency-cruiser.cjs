// The architecture, checked by `npm run deps` (in `npm run check`, so in CI): no import cycle anywhere in src,
// and every import goes downwards. Type-only imports count: they tie the files' meaning as much as the others.
'use strict';

/**
 * src/core's folders, lowest first: each imports only itself and the folders before it. The interpreter
 * (`interp/`) sits under what it feeds (sizing, analysis, presentation) and over what it reads (values,
 * shapes, the layer catalog, recognised attention, the activation tape).
 */
const CORE = [
  'findings',
  'limits',
  'ir',
  'values',
  'shapes',
  'catalog',
  'attention',
  'activations',
  'interp',
  'sizing',
  'analysis',
  'present',
];

/** src's layers, lowest first: the pure core, the parser layer, the document service, then the two front ends. */
const LAYERS = [['core'], ['syntax'], ['service'], ['vscode', 'cli']];

const under = (folders) => `^src/(?:${folders.join('|')})/`;
const coreUnder = (folders) => `^src/core/(?:${folders.join('|')})/`;

const coreLayering = CORE.slice(0, -1).map((folder, i) => ({
  name: `core-${folder}-imports-downwards`,
  comment: `src/core/${folder} may import only ${CORE.slice(0, i + 1).join(', ')}`,
  severity: 'error',
  from: { path: coreUnder([folder]) },
  to: { path: coreUnder(CORE.slice(i + 1)) },
}));

const layering = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `${layer.join('-')}-imports-downwards`,
  comment: `src/${layer.join(', src/')} never imports ${LAYERS.slice(i + 1)
    .flat()
    .join(', ')}`,
  severity: 'error',
  from: { path: under(layer) },
  to: { path: under(LAYERS.slice(i + 1).flat()) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import cycle ties its files into one: none in src (issue 25)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layering,
    {
      name: 'front-ends-apart',
      comment: 'the editor and the CLI share the service, never each other',
      severity: 'error',
      from: { path: '^src/(vscode|cli)/' },
      to: { path: '^src/(vscode|cli)/', pathNot: '^src/$1/' },
    },
    {
      name: 'core-file-in-a-folder',
      comment: "every file of src/core sits in one of the core's folders, which say where it may import from",
      severity: 'error',
      from: { path: '^src/core/[^/]+$' },
      to: {},
    },
    {
      name: 'nothing-imports-a-loose-core-file',
      severity: 'error',
      from: {},
      to: { path: '^src/core/[^/]+$' },
    },
    ...coreLayering,
    {
      name: 'core-reads-nothing-itself',
      comment:
        'the core is given trees, texts and files: no package or Node module (no editor, parser, file system or threads)',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { dependencyTypesNot: ['local'] },
    },
    {
      name: 'syntax-and-service-free-of-the-editor',
      severity: 'error',
      from: { path: '^src/(syntax|service)/' },
      to: { path: '^(node_modules/@types/)?vscode(/|$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(out|dist)/' },
  },
};
