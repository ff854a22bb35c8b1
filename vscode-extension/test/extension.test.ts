// Activates the bundled extension (dist/extension.js, built by `npm run compile`)
// against a mock `vscode` module and real processes: checks that a server that
// cannot start produces exactly ONE error message with the install advice and
// buttons, and that settings reach a (stub) server as initializationOptions,
// workspace/configuration answers and didChangeConfiguration.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { createVscodeMock } from './support/vscode-mock';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Module = require('node:module');

const ROOT = path.resolve(__dirname, '..', '..');
const BUNDLE = path.join(ROOT, 'dist', 'extension.js');
const STUB = path.join(ROOT, 'test', 'fixtures', 'stub_server.py');
const PYTHON = process.env.SDFORMAT_LSP_PYTHON || 'python3';
const hasPython = spawnSync(PYTHON, ['-c', 'pass']).status === 0;
const noPython = !hasPython && `${PYTHON} not available`;
const TIMEOUT = 60000;

interface ExtensionModule {
  activate(context: unknown): Promise<void>;
  started(): Promise<void>;
  deactivate(): Promise<void>;
}

let active: { ext: ExtensionModule; restore(): void } | undefined;

/** Loads a fresh copy of the bundle with `vscode` resolved to the mock. */
function loadExtension(mock: ReturnType<typeof createVscodeMock>): ExtensionModule {
  const originalLoad = Module._load;
  Module._load = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') {
      return mock.vscode;
    }
    return originalLoad.call(this, request, ...rest);
  };
  delete require.cache[BUNDLE];
  const ext = require(BUNDLE) as ExtensionModule;
  active = {
    ext,
    restore: () => {
      Module._load = originalLoad;
    },
  };
  return ext;
}

/** Activates a fresh copy of the extension and waits for the server start it begins (activation does not). */
async function activateAndStart(mock: ReturnType<typeof createVscodeMock>, context: unknown): Promise<ExtensionModule> {
  const ext = loadExtension(mock);
  await ext.activate(context);
  await ext.started();
  return ext;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(check: () => T | undefined, ms = 10000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > end) assert.fail('timed out waiting');
    await sleep(25);
  }
}

/**
 * The entries the stub server has finished writing. The server appends while
 * the test polls, so only newline-terminated lines are parsed: a line still
 * being written is left for the next poll instead of failing JSON.parse.
 */
function readLog(file: string): Array<Record<string, any>> {
  if (!fs.existsSync(file)) return [];
  return completeLines(fs.readFileSync(file, 'utf8')).map((l) => JSON.parse(l));
}

/** The newline-terminated, non-empty lines of `text` (an unterminated tail is dropped). */
function completeLines(text: string): string[] {
  const end = text.lastIndexOf('\n');
  return end < 0 ? [] : text.slice(0, end).split('\n').filter(Boolean);
}

describe('extension (bundle, mock vscode)', () => {
  afterEach(async () => {
    if (active) {
      await active.ext.deactivate();
      active.restore();
      active = undefined;
    }
  });

  it('reads only the log lines the server has finished writing', () => {
    assert.deepEqual(completeLines(''), []);
    assert.deepEqual(completeLines('{"a":1}\n{"b":'), ['{"a":1}']);
    assert.deepEqual(completeLines('{"a":1}\n\n{"b":2}\n'), ['{"a":1}', '{"b":2}']);
  });

  it('builds the bundle first', () => {
    assert.ok(fs.existsSync(BUNDLE), `${BUNDLE} exists (run npm run compile)`);
  });

  it('a missing command gives one error with buttons', { timeout: TIMEOUT }, async () => {
    const mock = createVscodeMock({ 'sdformat.server.command': ['surely-not-a-command-4711', '--stdio'] });
    mock.onMessage(() => 'Open Settings');
    await activateAndStart(mock, mock.context);
    await sleep(300);
    assert.equal(mock.messages.length, 1, JSON.stringify(mock.messages));
    const [m] = mock.messages;
    assert.equal(m.kind, 'error');
    assert.deepEqual(m.items, ['Open Settings', 'Show Output']);
    assert.match(m.message, /surely-not-a-command-4711/);
    assert.match(m.message, /sdformat\.server\.command/);
    assert.ok(mock.executed.some((e) => e.command === 'workbench.action.openSettings'), 'Open Settings opens the settings');
  });

  it('no python3 on PATH gives one error telling what to do', { timeout: TIMEOUT }, async () => {
    const mock = createVscodeMock({});
    const savedPath = process.env.PATH;
    process.env.PATH = path.join(os.tmpdir(), 'sdformat-lsp-empty-path');
    try {
      await activateAndStart(mock, mock.context);
    } finally {
      process.env.PATH = savedPath;
    }
    await sleep(300);
    assert.equal(mock.messages.length, 1, JSON.stringify(mock.messages));
    // This mock extension carries no server (no bundled/run.py): the platform-neutral build.
    assert.doesNotMatch(mock.messages[0].message, /pip install/);
    assert.match(mock.messages[0].message, /"python3?" was not found/);
    assert.match(mock.messages[0].message, /does not carry the server: install the \.vsix for your platform/);
    assert.match(mock.messages[0].message, /scripts\/install\.py/);
    assert.match(mock.output.join(''), /Starting: python3? -m sdformat_lsp/);
  });

  it('the server the extension carries, without a python3: one error saying Python 3.10 is all it needs', { timeout: TIMEOUT }, async () => {
    const ext = fs.mkdtempSync(path.join(os.tmpdir(), 'sdformat-ext-'));
    fs.mkdirSync(path.join(ext, 'bundled'));
    fs.writeFileSync(path.join(ext, 'bundled', 'run.py'), 'raise SystemExit(0)\n');
    const mock = createVscodeMock({});
    const savedPath = process.env.PATH;
    process.env.PATH = path.join(os.tmpdir(), 'sdformat-lsp-empty-path');
    try {
      await activateAndStart(mock, { ...mock.context, extensionPath: ext });
    } finally {
      process.env.PATH = savedPath;
    }
    await sleep(300);
    assert.equal(mock.messages.length, 1, JSON.stringify(mock.messages));
    const { message } = mock.messages[0];
    assert.match(mock.output.join(''), /Starting: python3? .*run\.py \(bundled\)/);
    assert.match(message, /carries its own server; it needs only Python 3\.10 or newer/);
    assert.match(message, /select such an interpreter in the Python extension/);
    assert.doesNotMatch(message, /pip install|does not carry/);
    fs.rmSync(ext, { recursive: true, force: true });
  });

  it('a command set in the workspace settings: Open Settings opens the Workspace settings', { timeout: TIMEOUT }, async () => {
    const mock = createVscodeMock({}, { workspaceSettings: { 'sdformat.server.command': ['surely-not-a-command-4711'] } });
    mock.onMessage(() => 'Open Settings');
    await activateAndStart(mock, mock.context);
    await sleep(300);
    assert.equal(mock.messages.length, 1, JSON.stringify(mock.messages));
    assert.match(mock.messages[0].message, /surely-not-a-command-4711/);
    const opened = mock.executed.find((e) => e.command.startsWith('workbench.action.open'));
    assert.deepEqual(opened, { command: 'workbench.action.openWorkspaceSettings', args: [{ query: 'sdformat.server.command' }] });
  });

  it('in an untrusted workspace the workspace value does not apply: Open Settings opens the User settings', { timeout: TIMEOUT }, async () => {
    const mock = createVscodeMock(
      { 'sdformat.server.command': ['surely-not-a-user-command-4711'] },
      { workspaceSettings: { 'sdformat.server.command': ['surely-not-a-command-4711'] }, trusted: false },
    );
    mock.onMessage(() => 'Open Settings');
    await activateAndStart(mock, mock.context);
    await sleep(300);
    assert.equal(mock.messages.length, 1, JSON.stringify(mock.messages));
    assert.match(mock.messages[0].message, /surely-not-a-user-command-4711/);
    const opened = mock.executed.find((e) => e.command.startsWith('workbench.action.open'));
    assert.deepEqual(opened, { command: 'workbench.action.openSettings', args: ['sdformat.server.command'] });
  });

  it('a python without the module gives one error telling how to install', { skip: noPython, timeout: TIMEOUT }, async () => {
    const mock = createVscodeMock({ 'sdformat.server.command': [PYTHON, '-m', 'sdformat_lsp_surely_missing_4711'] });
    await activateAndStart(mock, mock.context);
    await sleep(300);
    assert.equal(mock.messages.length, 1, JSON.stringify(mock.messages));
    assert.match(mock.messages[0].message, /not installed/);
    assert.match(mock.messages[0].message, /scripts\/install\.py/);
    assert.doesNotMatch(mock.messages[0].message, /pip install/);
  });

  it('a server that dies during startup gives one error, stderr in the output', { skip: noPython, timeout: TIMEOUT }, async () => {
    const crash = "import sys; sys.stderr.write('boom: startup failed\\n'); sys.exit(4)";
    const mock = createVscodeMock({ 'sdformat.server.command': [PYTHON, '-c', crash] });
    mock.onMessage(() => 'Show Output');
    await activateAndStart(mock, mock.context);
    await sleep(1000);
    assert.equal(mock.messages.length, 1, JSON.stringify(mock.messages));
    assert.equal(mock.messages[0].kind, 'error');
    assert.match(mock.messages[0].message, /exit code 4/);
    assert.match(mock.output.join(''), /boom: startup failed/);
  });

  it('a command that never answers initialize gives one error after the start timeout, and is stopped', { skip: noPython, timeout: TIMEOUT }, async () => {
    const pidFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sdformat-silent-')), 'pid');
    const silent = `import os, sys, time; open(${JSON.stringify(pidFile)}, 'w').write(str(os.getpid())); sys.stdin.read(); time.sleep(120)`;
    const mock = createVscodeMock({ 'sdformat.server.command': [PYTHON, '-c', silent] });
    mock.onMessage(() => undefined);
    process.env.SDFORMAT_LSP_START_TIMEOUT_MS = '1500';
    try {
      const started = Date.now();
      const ext = await activateAndStart(mock, mock.context);
      await ext.started();
      assert.ok(Date.now() - started < 20000, 'the start gave up in time');
      await sleep(1000);
      assert.equal(mock.messages.length, 1, JSON.stringify(mock.messages));
      assert.equal(mock.messages[0].kind, 'error');
      assert.match(mock.messages[0].message, /did not answer .*initialize.* within 2 s/);
      const pid = Number(fs.readFileSync(pidFile, 'utf8'));
      await waitFor(() => {
        try {
          process.kill(pid, 0);
          return undefined; // still running
        } catch {
          return true;
        }
      });
    } finally {
      delete process.env.SDFORMAT_LSP_START_TIMEOUT_MS;
    }
  });

  it('settings reach the server; restart and config changes work', { skip: noPython, timeout: TIMEOUT }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdformat-ext-'));
    const log = path.join(dir, 'log.jsonl');
    const mock = createVscodeMock(
      {
        'sdformat.server.command': [PYTHON, STUB, log],
        'sdformat.resourcePaths': ['models', '${workspaceFolder}/more', ''],
        'sdformat.debounceMs': 250,
        'sdformat.maxDocumentSizeMB': 4,
        'sdformat.trace.server': 'off',
      },
      { workspaceFolder: dir },
    );
    const expected = { resourcePaths: [path.join(dir, 'models'), path.join(dir, 'more')], debounceMs: 250, maxDocumentSizeMB: 4 };
    await activateAndStart(mock, mock.context);

    const init = await waitFor(() => readLog(log).find((e) => e.method === 'initialize'));
    assert.deepEqual(init.params.initializationOptions, expected);
    const config = await waitFor(() => readLog(log).find((e) => e.response === 'cfg-1'));
    assert.deepEqual(config.result, [expected]);

    mock.changeSettings({ 'sdformat.debounceMs': 300 });
    const change = await waitFor(() => readLog(log).find((e) => e.method === 'workspace/didChangeConfiguration'));
    assert.deepEqual(change.params.settings.sdformat, { ...expected, debounceMs: 300 });
    mock.changeSettings({ 'sdformat.maxDocumentSizeMB': 0 });
    const unlimited = await waitFor(() => readLog(log).filter((e) => e.method === 'workspace/didChangeConfiguration')[1]);
    assert.deepEqual(unlimited.params.settings.sdformat, { ...expected, debounceMs: 300, maxDocumentSizeMB: 0 });

    await mock.vscode.commands.executeCommand('sdformat.restartServer');
    await waitFor(() => (readLog(log).filter((e) => e.method === 'initialize').length === 2 ? true : undefined));
    const methods = readLog(log).map((e) => e.method);
    assert.ok(methods.includes('shutdown') && methods.includes('exit'), methods.join(', '));

    // Changing the command restarts the server with the new command.
    mock.changeSettings({ 'sdformat.server.command': `${PYTHON} ${STUB} ${log} again` });
    await waitFor(() => (readLog(log).filter((e) => e.method === 'initialize').length === 3 ? true : undefined));

    assert.equal(mock.messages.length, 0, JSON.stringify(mock.messages));
    await active!.ext.deactivate();
    await waitFor(() => (readLog(log).filter((e) => e.method === 'exit').length === 3 ? true : undefined));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every server setting applies live; the same command is not restarted', { skip: noPython, timeout: TIMEOUT }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdformat-ext-'));
    const log = path.join(dir, 'log.jsonl');
    const mock = createVscodeMock({ 'sdformat.server.command': [PYTHON, STUB, log] }, { workspaceFolder: dir });
    await activateAndStart(mock, mock.context);
    await waitFor(() => readLog(log).find((e) => e.response === 'cfg-1'));
    mock.changeSettings({ 'sdformat.inlayHints.angles': 'radians', 'sdformat.inlayHints.enabled': false });
    const change = await waitFor(() => readLog(log).find((e) => e.method === 'workspace/didChangeConfiguration'));
    assert.deepEqual(change.params.settings.sdformat.inlayHints, { enabled: false, angles: 'radians' });
    // The same command written differently: nothing to restart (local window: no message either).
    mock.changeSettings({ 'sdformat.server.command': `${PYTHON} ${STUB} ${log}` });
    await sleep(500);
    assert.equal(readLog(log).filter((e) => e.method === 'initialize').length, 1);
    assert.equal(mock.messages.length, 0, JSON.stringify(mock.messages));
    await active!.ext.deactivate();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('in a remote window a User-settings change that does not apply says where to set it', { skip: noPython, timeout: TIMEOUT }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdformat-ext-'));
    const log = path.join(dir, 'log.jsonl');
    const mock = createVscodeMock({ 'sdformat.server.command': [PYTHON, STUB, log] }, { workspaceFolder: dir, remoteName: 'ssh-remote' });
    mock.onMessage(() => 'Open Settings');
    await activateAndStart(mock, mock.context);
    await waitFor(() => readLog(log).find((e) => e.method === 'initialize'));
    // VS Code fires the event for the User settings, but the value that applies (the remote's) is unchanged.
    mock.changeSettings({ 'sdformat.server.command': [PYTHON, STUB, log] });
    await waitFor(() => (mock.messages.length > 0 ? true : undefined));
    assert.equal(mock.messages.length, 1, JSON.stringify(mock.messages));
    assert.equal(mock.messages[0].kind, 'info');
    assert.match(mock.messages[0].message, /Remote settings/);
    const opened = mock.executed.find((e) => e.command === 'workbench.action.openRemoteSettings');
    assert.ok(opened, JSON.stringify(mock.executed));
    assert.deepEqual(opened.args, [{ query: 'sdformat.server.command' }]);
    assert.equal(readLog(log).filter((e) => e.method === 'initialize').length, 1, 'not restarted');
    await active!.ext.deactivate();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('in a remote window the error message opens the Remote settings', { timeout: TIMEOUT }, async () => {
    const mock = createVscodeMock({ 'sdformat.server.command': ['surely-not-a-command-4711'] }, { remoteName: 'wsl' });
    mock.onMessage(() => 'Open Settings');
    await activateAndStart(mock, mock.context);
    await sleep(300);
    assert.equal(mock.messages.length, 1, JSON.stringify(mock.messages));
    assert.ok(mock.executed.some((e) => e.command === 'workbench.action.openRemoteSettings'), JSON.stringify(mock.executed));
    assert.ok(!mock.executed.some((e) => e.command === 'workbench.action.openSettings'));
  });

  it('uses the interpreter of the Python extension and follows its changes', { skip: noPython, timeout: TIMEOUT }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdformat-ext-'));
    const log = path.join(dir, 'log.jsonl');
    // A fake `sdformat_lsp` package whose __main__ is the stub server.
    fs.mkdirSync(path.join(dir, 'sdformat_lsp'));
    fs.writeFileSync(path.join(dir, 'sdformat_lsp', '__init__.py'), '');
    fs.writeFileSync(
      path.join(dir, 'sdformat_lsp', '__main__.py'),
      `import runpy, sys\nsys.argv = [${JSON.stringify(STUB)}, ${JSON.stringify(log)}]\nrunpy.run_path(${JSON.stringify(STUB)}, run_name='__main__')\n`,
    );
    const python = spawnSync(PYTHON, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim();
    const changed = new (require('./support/vscode-mock').EventEmitter)();
    const calls: string[] = [];
    const pythonExtension = {
      isActive: true,
      exports: {
        environments: {
          getActiveEnvironmentPath: () => (calls.push('getActiveEnvironmentPath'), { id: 'env', path: python }),
          resolveEnvironment: async () => ({ executable: { uri: { fsPath: python } } }),
          onDidChangeActiveEnvironmentPath: changed.event,
        },
      },
    };
    const mock = createVscodeMock({}, { workspaceFolder: dir, extensions: { 'ms-python.python': pythonExtension } });
    const savedPythonPath = process.env.PYTHONPATH;
    process.env.PYTHONPATH = dir;
    try {
      await activateAndStart(mock, mock.context);
      await waitFor(() => readLog(log).find((e) => e.method === 'initialize'));
      assert.ok(calls.length > 0, 'asked the Python extension');
      assert.ok(mock.output.join('').includes(`Starting: ${python} -m sdformat_lsp (python-extension)`), mock.output.join(''));

      changed.fire({ id: 'env2', path: python });
      await waitFor(() => (readLog(log).filter((e) => e.method === 'initialize').length === 2 ? true : undefined));
      assert.equal(mock.messages.length, 0, JSON.stringify(mock.messages));
    } finally {
      await active?.ext.deactivate();
      if (savedPythonPath === undefined) delete process.env.PYTHONPATH;
      else process.env.PYTHONPATH = savedPythonPath;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
