// Bundles the extension (src/extension.ts and what it imports, including
// vscode-languageclient) into dist/extension.js. `vscode` is provided by the editor.
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

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
