// Unit tests of the editor-independent launch logic (src/launch.ts, src/settings.ts).

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import {
  classifyEarlyExit,
  findExecutable,
  formatCommand,
  formatStartFailure,
  preflight,
  pythonModuleInvocation,
  resolveServerCommand,
  ServerStartError,
  spawnServer,
  splitCommandLine,
} from '../src/launch';
import { buildServerSettings, editableScope, expandVariables } from '../src/settings';

const PYTHON = process.env.SDFORMAT_LSP_PYTHON || 'python3';
const hasPython = spawnSync(PYTHON, ['-c', 'pass']).status === 0;

describe('splitCommandLine', () => {
  it('splits on whitespace and honours quotes', () => {
    assert.deepEqual(splitCommandLine('python3  -m sdformat_lsp', 'linux'), ['python3', '-m', 'sdformat_lsp']);
    assert.deepEqual(splitCommandLine('"/opt/my venv/bin/python" -m x', 'linux'), ['/opt/my venv/bin/python', '-m', 'x']);
    assert.deepEqual(splitCommandLine("a 'b c' d\\ e \"f\\\"g\"", 'linux'), ['a', 'b c', 'd e', 'f"g']);
    assert.deepEqual(splitCommandLine('a "" b', 'linux'), ['a', '', 'b']);
  });
  it('keeps backslashes on Windows', () => {
    assert.deepEqual(splitCommandLine('"C:\\Program Files\\Python\\python.exe" -m sdformat_lsp', 'win32'), [
      'C:\\Program Files\\Python\\python.exe',
      '-m',
      'sdformat_lsp',
    ]);
  });
  it('rejects an unterminated quote', () => {
    assert.throws(() => splitCommandLine('python "-m', 'linux'));
  });
});

describe('resolveServerCommand', () => {
  it('runs the server the extension carries unless a command is configured', () => {
    assert.deepEqual(resolveServerCommand({ bundledLauncher: '/ext/bundled/run.py', platform: 'linux' }), {
      command: 'python3',
      args: ['/ext/bundled/run.py'],
      source: 'bundled',
    });
    assert.deepEqual(resolveServerCommand({ bundledLauncher: '/ext/bundled/run.py', pythonCommand: ['/venv/bin/python'] }).args, [
      '/ext/bundled/run.py',
    ]);
    const configured = resolveServerCommand({ bundledLauncher: '/ext/bundled/run.py', setting: ['sdformat-lsp'] });
    assert.deepEqual([configured.command, configured.source], ['sdformat-lsp', 'setting']);
  });

  it('defaults to python3 -m sdformat_lsp', () => {
    assert.deepEqual(resolveServerCommand({ platform: 'linux' }), {
      command: 'python3',
      args: ['-m', 'sdformat_lsp'],
      source: 'default',
    });
    assert.deepEqual(resolveServerCommand({ setting: [], platform: 'linux' }).source, 'default');
    assert.deepEqual(resolveServerCommand({ setting: '   ', platform: 'linux' }).source, 'default');
    assert.equal(resolveServerCommand({ platform: 'win32' }).command, 'python');
  });
  it('uses the Python extension interpreter', () => {
    assert.deepEqual(resolveServerCommand({ pythonCommand: ['/venv/bin/python'] }), {
      command: '/venv/bin/python',
      args: ['-m', 'sdformat_lsp'],
      source: 'python-extension',
    });
    assert.deepEqual(resolveServerCommand({ pythonCommand: ['conda', 'run', '-n', 'ros', 'python'] }), {
      command: 'conda',
      args: ['run', '-n', 'ros', 'python', '-m', 'sdformat_lsp'],
      source: 'python-extension',
    });
    assert.equal(resolveServerCommand({ pythonCommand: [] }).source, 'default');
  });
  it('prefers the setting, as array or string, with variables expanded', () => {
    const variables = { workspaceFolder: '/ws', home: '/home/u', env: { X: 'y' } };
    assert.deepEqual(resolveServerCommand({ setting: ['${workspaceFolder}/.venv/bin/python', '-m', 'sdformat_lsp'], variables }), {
      command: '/ws/.venv/bin/python',
      args: ['-m', 'sdformat_lsp'],
      source: 'setting',
    });
    assert.deepEqual(
      resolveServerCommand({ setting: '~/bin/sdformat-lsp --log ${env:X}', variables, pythonCommand: ['/p'], platform: 'linux' }),
      { command: path.join('/home/u', 'bin/sdformat-lsp'), args: ['--log', 'y'], source: 'setting' },
    );
  });
  it('rejects malformed settings', () => {
    for (const setting of [42, { a: 1 }, ['python', 3], '"unterminated']) {
      assert.throws(
        () => resolveServerCommand({ setting }),
        (e: unknown) => e instanceof ServerStartError && e.kind === 'invalid-setting',
      );
    }
  });
  it('finds the python module invocation', () => {
    assert.deepEqual(pythonModuleInvocation(resolveServerCommand({ pythonCommand: ['conda', 'run', 'python'] })), {
      python: ['conda', 'run', 'python'],
      module: 'sdformat_lsp',
    });
    assert.equal(pythonModuleInvocation({ command: 'sdformat-lsp', args: [], source: 'setting' }), undefined);
    assert.equal(formatCommand({ command: '/a b/python', args: ['-m', 'x'] }), '"/a b/python" -m x');
  });
});

describe('settings', () => {
  it('expands variables', () => {
    const ctx = { workspaceFolder: '/ws', workspaceFolders: { other: '/o' }, home: '/h', env: { GZ: '/gz' } };
    assert.equal(expandVariables('${workspaceFolder}/models', ctx), '/ws/models');
    assert.equal(expandVariables('${workspaceFolder:other}/m', ctx), '/o/m');
    assert.equal(expandVariables('${userHome}/x', ctx), '/h/x');
    assert.equal(expandVariables('${env:GZ}:${env:NOPE}', ctx), '/gz:');
    assert.equal(expandVariables('~/m', ctx), path.join('/h', 'm'));
    assert.equal(expandVariables('${unknown}', ctx), '${unknown}');
  });
  it('builds the settings sent to the server', () => {
    const ctx = { workspaceFolder: '/ws', home: '/h', env: {} };
    assert.deepEqual(
      buildServerSettings({ resourcePaths: ['models', '/abs', '', 7, '~/gz', 'models'], debounceMs: 150.4, server: { command: [] } }, ctx),
      { resourcePaths: [path.resolve('/ws', 'models'), '/abs', path.join('/h', 'gz')], debounceMs: 150 },
    );
    assert.deepEqual(buildServerSettings(undefined, ctx), { resourcePaths: [] });
    assert.deepEqual(buildServerSettings({ debounceMs: -1 }, ctx), { resourcePaths: [] });
    assert.deepEqual(buildServerSettings({ maxDocumentSizeMB: 8.5 }, ctx), { resourcePaths: [], maxDocumentSizeMB: 8.5 });
    assert.deepEqual(buildServerSettings({ maxDocumentSizeMB: 0 }, ctx), { resourcePaths: [], maxDocumentSizeMB: 0 });
    for (const bad of [-1, '4', Infinity, null]) {
      assert.deepEqual(buildServerSettings({ maxDocumentSizeMB: bad }, ctx), { resourcePaths: [] }, String(bad));
    }
    assert.deepEqual(buildServerSettings({ inlayHints: { enabled: false, angles: 'radians' } }, ctx), {
      resourcePaths: [],
      inlayHints: { enabled: false, angles: 'radians' },
    });
    assert.deepEqual(buildServerSettings({ inlayHints: { enabled: 'no', angles: 'gradians' } }, ctx), { resourcePaths: [] });
  });
});

describe('editableScope', () => {
  it('opens the scope whose value applies', () => {
    const local = { remote: false, trusted: true };
    const remote = { remote: true, trusted: true };
    assert.equal(editableScope(undefined, local), 'user');
    assert.equal(editableScope({ globalValue: ['x'] }, local), 'user');
    assert.equal(editableScope({ globalValue: ['x'] }, remote), 'remote');
    assert.equal(editableScope({ workspaceValue: ['x'] }, remote), 'workspace');
    assert.equal(editableScope({ workspaceFolderValue: 'x' }, local), 'workspace');
    // An empty workspace value does not apply; nor does any workspace value in an untrusted workspace.
    assert.equal(editableScope({ workspaceValue: [], globalValue: ['x'] }, local), 'user');
    assert.equal(editableScope({ workspaceValue: '  ' }, remote), 'remote');
    assert.equal(editableScope({ workspaceValue: ['x'] }, { remote: false, trusted: false }), 'user');
    assert.equal(editableScope({ workspaceValue: ['x'] }, { remote: true, trusted: false }), 'remote');
  });
});

describe('start failure detection', () => {
  it('findExecutable searches PATH', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdf-lsp-'));
    const exe = path.join(dir, 'fake-server');
    fs.writeFileSync(exe, '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'not-exec'), '', { mode: 0o644 });
    const env = { PATH: `/nonexistent${path.delimiter}${dir}` };
    if (process.platform !== 'win32') {
      assert.equal(findExecutable('fake-server', { env }), exe);
      assert.equal(findExecutable('not-exec', { env }), undefined);
      assert.equal(findExecutable(exe, { env: {} }), exe);
    }
    assert.equal(findExecutable('surely-not-a-command-4711', { env }), undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('preflight reports a missing command', async () => {
    const sc = resolveServerCommand({ setting: ['surely-not-a-command-4711', '--stdio'] });
    const problem = await preflight(sc);
    assert.ok(problem instanceof ServerStartError);
    assert.equal(problem.kind, 'command-not-found');
    const message = formatStartFailure(problem);
    assert.match(message, /surely-not-a-command-4711/);
    assert.match(message, /sdformat\.server\.command/);
  });

  it('preflight reports a missing default python with install advice', async () => {
    const sc = resolveServerCommand({ defaultPython: 'surely-not-python-4711' });
    const problem = await preflight(sc);
    assert.equal(problem?.kind, 'command-not-found');
    // The platform-neutral build (no server carried): say so, and how to get one.
    const message = formatStartFailure(problem, { bundled: false, platform: 'linux' });
    assert.match(message, /surely-not-python-4711" was not found/);
    assert.match(message, /Python 3\.10 or newer/);
    assert.match(message, /install the \.vsix for your platform/);
    assert.match(message, /"python3 scripts\/install\.py"/);
    assert.match(message, /"sdformat\.server\.command" to \["<checkout>\/\.venv\/bin\/sdformat-lsp"\]/);
    assert.doesNotMatch(message, /pip install/);
  });

  it('preflight reports a missing python module', { skip: !hasPython && `${PYTHON} not available` }, async () => {
    const sc = { command: PYTHON, args: ['-m', 'sdformat_lsp_surely_missing_4711'], source: 'default' as const };
    const problem = await preflight(sc);
    assert.equal(problem?.kind, 'module-missing');
    const message = formatStartFailure(problem);
    assert.match(message, /sdformat_lsp_surely_missing_4711/);
    assert.match(message, /scripts\/install\.py/);
    assert.match(message, /sdformat\.server\.command/);
    assert.doesNotMatch(message, /pip install/);
    // An installed module passes.
    assert.equal(await preflight({ command: PYTHON, args: ['-m', 'json.tool'], source: 'default' }), undefined);
  });

  it('spawnServer rejects a missing command with one classified error', async () => {
    await assert.rejects(
      spawnServer({ command: 'surely-not-a-command-4711', args: [], source: 'setting' }),
      (e: unknown) => e instanceof ServerStartError && e.kind === 'command-not-found',
    );
  });

  it('a message written to a server that has exited is dropped, not an EPIPE rejection', { skip: !hasPython && `${PYTHON} not available` }, async () => {
    const server = await spawnServer({ command: PYTHON, args: ['-c', 'import sys; sys.stdin.close()'], source: 'setting' });
    await server.exited;
    const stdin = server.process.stdin!;
    const big = 'x'.repeat(1 << 20); // more than a pipe holds, so the write reaches the closed pipe
    const errors: Array<Error | null | undefined> = [];
    for (let i = 0; i < 3; i++) {
      errors.push(await new Promise((done) => stdin.write(big, 'utf8', (error) => done(error))));
    }
    assert.deepEqual(errors, [null, null, null]);
  });

  it('classifies a server that dies at startup', { skip: !hasPython && `${PYTHON} not available` }, async () => {
    // The real interpreter, a module that does not exist: what `python -m sdformat_lsp` does when not installed.
    const sc = { command: PYTHON, args: ['-m', 'sdformat_lsp_surely_missing_4711'], source: 'default' as const };
    const server = await spawnServer(sc);
    const exit = await server.exited;
    assert.notEqual(exit.code, 0);
    const error = classifyEarlyExit(sc, exit, server.stderrTail());
    assert.equal(error.kind, 'module-missing');

    const dep = classifyEarlyExit(
      { command: 'python3', args: ['-m', 'sdformat_lsp'], source: 'default' },
      { code: 1, signal: null },
      "Traceback...\nModuleNotFoundError: No module named 'pygls'\n",
    );
    assert.equal(dep.kind, 'dependency-missing');
    assert.match(formatStartFailure(dep), /pygls/);
    assert.match(formatStartFailure(dep), /scripts\/install\.py/);
    assert.doesNotMatch(formatStartFailure(dep), /pip install/);
    // In the server the extension carries, a missing module means a damaged or foreign .vsix.
    const carried = classifyEarlyExit(
      { command: 'python3', args: ['/ext/bundled/run.py'], source: 'bundled' },
      { code: 1, signal: null },
      "ModuleNotFoundError: No module named 'lxml'\n",
    );
    assert.equal(carried.kind, 'dependency-missing');
    assert.match(formatStartFailure(carried), /Reinstall the extension \(the \.vsix for your platform\)/);

    // Installed but broken (a part of the package is missing): not "not installed".
    for (const stderr of [
      "ModuleNotFoundError: No module named 'sdformat_lsp.server'\n",
      "/usr/bin/python3: No module named sdformat_lsp.__main__; 'sdformat_lsp' is a package and cannot be directly executed\n",
    ]) {
      const broken = classifyEarlyExit({ command: 'python3', args: ['-m', 'sdformat_lsp'], source: 'default' }, { code: 1, signal: null }, stderr);
      assert.equal(broken.kind, 'dependency-missing', stderr);
    }
    const notInstalled = classifyEarlyExit(
      { command: '/venv/bin/python', args: ['-m', 'sdformat_lsp'], source: 'python-extension' },
      { code: 1, signal: null },
      '/venv/bin/python: No module named sdformat_lsp\n',
    );
    assert.equal(notInstalled.kind, 'module-missing');
    assert.match(formatStartFailure(notInstalled, { bundled: false }), /not installed in \/venv\/bin\/python/);
    assert.match(formatStartFailure(notInstalled, { bundled: false }), /scripts\/install\.py/);
    assert.match(formatStartFailure(notInstalled), /Python extension/);

    const other = classifyEarlyExit(
      { command: 'python3', args: ['-m', 'sdformat_lsp'], source: 'default' },
      { code: 2, signal: null },
      'boom\n',
    );
    assert.equal(other.kind, 'exited');
    assert.match(formatStartFailure(other), /exit code 2/);
  });

  it('spawnServer passes the bytecode cache folder, unless the user set one', { skip: !hasPython && `${PYTHON} not available` }, async () => {
    const show = 'import os, sys; sys.stdout.write(os.environ.get("PYTHONPYCACHEPREFIX", "-")); sys.stdout.flush()';
    const read = async (options: Parameters<typeof spawnServer>[1]) => {
      const server = await spawnServer({ command: PYTHON, args: ['-c', show], source: 'bundled' }, options);
      let out = '';
      server.process.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      await server.exited;
      return out;
    };
    const env = { ...process.env };
    delete env.PYTHONPYCACHEPREFIX;
    assert.equal(await read({ env, pycachePrefix: '/storage/pycache' }), '/storage/pycache');
    assert.equal(await read({ env }), '-');
    assert.equal(await read({ env: { ...env, PYTHONPYCACHEPREFIX: '/mine' }, pycachePrefix: '/storage/pycache' }), '/mine');
  });

  it('spawnServer gives a process speaking over stdio and terminates it', { skip: !hasPython && `${PYTHON} not available` }, async () => {
    const echo = 'import sys\nfor line in sys.stdin:\n    sys.stdout.write(line.upper()); sys.stdout.flush()\n';
    const server = await spawnServer({ command: PYTHON, args: ['-c', echo], source: 'setting' });
    const reply = new Promise<string>((resolve) => server.process.stdout!.once('data', (d: Buffer) => resolve(d.toString())));
    server.process.stdin!.write('hello\n');
    assert.equal(await reply, 'HELLO\n');
    assert.equal(server.hasExited(), false);
    const exit = await server.terminate(0);
    assert.ok(exit.signal !== null || exit.code !== null);
    assert.equal(server.hasExited(), true);
  });

  it('formats a non-classified error with what to do', () => {
    assert.match(formatStartFailure(new Error('x'), { bundled: true }), /See the output/);
    assert.match(formatStartFailure(new Error('x'), { bundled: true }), /clear it to use the server the extension carries|scripts\/install\.py/);
  });

  // The package is on no index: no message may advise `pip install sdformat-lsp`. Every one says
  // what to do now: Python 3.10+ for the server the extension carries, the setting, or a checkout
  // through scripts/install.py.
  it('no start failure advises pip install; every one says what to do', () => {
    const sources = ['bundled', 'setting', 'python-extension', 'default'] as const;
    const kinds = ['invalid-setting', 'command-not-found', 'module-missing', 'dependency-missing', 'spawn-failed', 'exited', 'initialize-failed'] as const;
    let count = 0;
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      for (const bundled of [true, false]) {
        for (const source of sources) {
          if (source === 'bundled' && !bundled) continue;
          const sc =
            source === 'bundled'
              ? { command: 'python3', args: ['/ext/bundled/run.py'], source }
              : { command: 'python3', args: ['-m', 'sdformat_lsp'], source };
          for (const kind of kinds) {
            const error = new ServerStartError(kind, `problem ${kind}`, kind === 'invalid-setting' ? undefined : sc, {
              missing: kind === 'command-not-found' ? 'python3' : 'sdformat_lsp',
              exitCode: 1,
              stderr: 'last words\n',
            });
            for (const message of [formatStartFailure(error, { bundled, platform }), formatStartFailure(new Error('x'), { bundled, platform })]) {
              count++;
              assert.doesNotMatch(message, /pip install/, message);
              assert.match(message, /Python 3\.10|sdformat\.server\.command|scripts[\\/]install\.py/, message);
              if (!bundled && source !== 'setting' && kind !== 'invalid-setting') {
                assert.match(message, /does not carry the server/, message);
              }
              if (platform === 'win32' && /\.venv/.test(message)) {
                assert.match(message, /\.venv\\\\Scripts\\\\sdformat-lsp\.exe/, message);
              }
            }
          }
        }
      }
    }
    assert.ok(count > 100);
    // No Python at all for the carried server: what to install, per platform.
    const noPython = new ServerStartError('command-not-found', 'x', { command: 'python3', args: ['/b/run.py'], source: 'bundled' }, { missing: 'python3' });
    assert.match(formatStartFailure(noPython, { platform: 'linux' }), /carries its own server; it needs only Python 3\.10 or newer: install Python 3\.10 or newer with your package manager/);
    assert.match(formatStartFailure(noPython, { platform: 'win32' }), /python\.org/);
    assert.match(formatStartFailure(noPython, { platform: 'linux' }), /select such an interpreter in the Python extension/);
  });
});
