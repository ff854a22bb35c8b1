// Packages the extension as a .vsix for one platform with the language server inside
// (bundled/, made by scripts/bundle_server.py: the server, its pure-Python dependencies and
// lxml for CPython 3.10-3.13), so that installing the .vsix is all a user does.
//   node scripts/package.mjs [--target linux-x64|linux-arm64|darwin-x64|darwin-arm64|win32-x64|alpine-x64]
//   node scripts/package.mjs --all      one .vsix per platform, each checked (about 30 s a platform)
// Each platform .vsix is checked after packaging (bundle_server.py --verify-vsix: its manifest's
// target, and lxml built for that OS, CPU and each CPython). When the wheels cannot be had (no
// package index, SDFORMAT_LSP_NO_BUNDLE=1) it packages the platform-neutral .vsix without the
// server instead, saying so: that one runs a server of the user's own.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TARGETS = ['linux-x64', 'linux-arm64', 'alpine-x64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const hostTarget = () => {
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const os = process.platform === 'win32' ? 'win32' : process.platform === 'darwin' ? 'darwin' : 'linux';
  return `${os}-${arch}`;
};
const python = process.env.SDFORMAT_LSP_PYTHON || (process.platform === 'win32' ? 'python' : 'python3');
const vsce = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' }).status;

/** Packages one target; returns the exit status (0: the .vsix is there and checked). */
function packageTarget(target, { fallback }) {
  let bundled = false;
  if (process.env.SDFORMAT_LSP_NO_BUNDLE !== '1') {
    bundled = run(python, ['scripts/bundle_server.py', '--target', target]) === 0;
    if (!bundled && !fallback) {
      console.error(`\nCould not bundle the server for ${target}.\n`);
      return 1;
    }
    if (!bundled) console.warn(`\nCould not bundle the server for ${target}: packaging the .vsix without it (it will need a server of your own).\n`);
  }
  if (!bundled) fs.rmSync(path.join(root, 'bundled'), { recursive: true, force: true });
  const status = run(vsce, ['package', '--no-dependencies', ...(bundled ? ['--target', target] : [])]) ?? 1;
  if (status !== 0 || !bundled) return status;
  return run(python, ['scripts/bundle_server.py', '--target', target, '--verify-vsix', `sdformat-lsp-${target}-${version}.vsix`]) ?? 1;
}

if (process.argv.includes('--all')) {
  const failed = TARGETS.filter((target) => packageTarget(target, { fallback: false }) !== 0);
  // Leave bundled/ for this machine, as `npm run package` does (the tests run it).
  if (failed.length === 0) run(python, ['scripts/bundle_server.py', '--target', hostTarget()]);
  console.log(failed.length ? `\nFailed: ${failed.join(', ')}` : `\nPackaged and checked: ${TARGETS.join(', ')}`);
  process.exit(failed.length ? 1 : 0);
}
process.exit(packageTarget(arg('--target') ?? hostTarget(), { fallback: true }));
