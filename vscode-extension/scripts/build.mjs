// Bundles the extension (src/extension.ts and what it imports, including
// vscode-languageclient) into dist/extension.js, and the 3D preview (server/sdformat_lsp/viewer/page/vscode.js
// with three.js) into dist/preview.js. `vscode` is provided by the editor.
//   node scripts/build.mjs               development build with source map
//   node scripts/build.mjs --production  minified, no source map (used by `vsce package`)
//   node scripts/build.mjs --watch
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const options = {
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  external: ['vscode'],
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'info',
};

// The 3D preview's script, run in a webview: the page `sdformat-lsp view` serves too (one source, in the
// Python package: server/sdformat_lsp/viewer/page), with three.js and its loaders bundled in (no network).
// `three` is resolved from this folder's node_modules.
const preview = {
  entryPoints: ['../server/sdformat_lsp/viewer/page/vscode.js'],
  nodePaths: [new URL('../node_modules', import.meta.url).pathname],
  bundle: true,
  outfile: 'dist/preview.js',
  format: 'iife',
  platform: 'browser',
  target: 'es2020',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'info',
};

// The mesh worker the preview starts (COLLADA parsed off the webview's thread, which in VS Code for the Web and
// code-server is the workbench's): its own script, read by the page and started from a blob: URL.
const meshWorker = { ...preview, entryPoints: ['../server/sdformat_lsp/viewer/page/meshworker.js'], outfile: 'dist/meshworker.js' };

if (watch) {
  for (const o of [options, preview, meshWorker]) await (await esbuild.context(o)).watch();
} else {
  await Promise.all([esbuild.build(options), esbuild.build(preview), esbuild.build(meshWorker)]);
}
