// Packages the extension as a .vsix for this platform with the language server inside
// (bundled/, made by scripts/bundle_server.py: the server, its pure-Python dependencies and
// lxml for CPython 3.10-3.13), so that installing the .vsix is all a user does.
//   node scripts/package.mjs [--target linux-x64|linux-arm64|darwin-x64|darwin-arm64|win32-x64|alpine-x64]
// When the wheels cannot be had (no package index, SDFORMAT_LSP_NO_BUNDLE=1) it packages the
// platform-neutral .vsix without the server instead, saying so: that one runs an installed server.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

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
const target = arg('--target') ?? hostTarget();
const python = process.env.SDFORMAT_LSP_PYTHON || (process.platform === 'win32' ? 'python' : 'python3');
const vsce = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' }).status;

let bundled = false;
if (process.env.SDFORMAT_LSP_NO_BUNDLE !== '1') {
  bundled = run(python, ['scripts/bundle_server.py', '--target', target]) === 0;
  if (!bundled) console.warn(`\nCould not bundle the server for ${target}: packaging the .vsix without it (it will need an installed server).\n`);
}
if (!bundled) fs.rmSync(path.join(root, 'bundled'), { recursive: true, force: true });
const args = ['package', '--no-dependencies', ...(bundled ? ['--target', target] : [])];
process.exit(run(vsce, args) ?? 1);
