// End-to-end test: starts the Python server (`python -m sdformat_lsp`) with the
// extension's own launch logic (src/launch.ts, src/settings.ts) and talks to it
// over stdio with vscode-jsonrpc, the JSON-RPC stack vscode-languageclient uses.
//
// Python: $SDFORMAT_LSP_PYTHON, else python3. Skipped when
// `<python> -c "import sdformat_lsp"` fails.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import {
  DefinitionRequest,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  InitializeResult,
  Location,
  LocationLink,
  MarkupContent,
  Position,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  ShutdownRequest,
} from 'vscode-languageserver-protocol';
import { preflight, resolveServerCommand, spawnServer, SpawnedServer } from '../src/launch';
import { buildServerSettings, ServerSettings } from '../src/settings';

const PYTHON = process.env.SDFORMAT_LSP_PYTHON || 'python3';
const FIXTURES = path.resolve(__dirname, '..', '..', 'test', 'fixtures');
const FIXTURE = path.join(FIXTURES, 'frames.sdf');
const TIMEOUT = 30000;

function serverUnavailable(): string | undefined {
  const probe = spawnSync(PYTHON, ['-c', 'import sdformat_lsp.server.app'], { encoding: 'utf8' });
  if (probe.error) {
    return `${PYTHON} not runnable: ${probe.error.message}`;
  }
  if (probe.status !== 0) {
    return `${PYTHON} -c "import sdformat_lsp.server.app" failed (set SDFORMAT_LSP_PYTHON to an interpreter that has the server installed)`;
  }
  return undefined;
}

/** Zero-based position of a character offset (UTF-16 code units, like LSP's default encoding). */
function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

/** Offset of `needle` (which must occur exactly once) plus `delta`. */
function offsetOf(text: string, needle: string, delta = 0): number {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `fixture contains ${needle}`);
  assert.equal(text.indexOf(needle, i + 1), -1, `fixture contains ${needle} once`);
  return i + delta;
}

/** Resolves to the promise's value, or to undefined after `ms` (without keeping node alive afterwards). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

function samePath(uriA: string, uriB: string): boolean {
  return path.resolve(fileURLToPath(uriA)) === path.resolve(fileURLToPath(uriB));
}

class TestClient {
  readonly diagnostics = new Map<string, PublishDiagnosticsParams[]>();
  readonly log: string[] = [];
  private waiters: Array<() => void> = [];

  constructor(
    readonly server: SpawnedServer,
    readonly connection: MessageConnection,
    settings: ServerSettings,
  ) {
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const list = this.diagnostics.get(params.uri) ?? [];
      list.push(params);
      this.diagnostics.set(params.uri, list);
      this.waiters.forEach((w) => w());
    });
    connection.onNotification((method, params) => {
      this.log.push(`${method} ${JSON.stringify(params)}`);
    });
    // What VS Code answers to the server's requests.
    connection.onRequest((method, params) => {
      if (method === 'workspace/configuration') {
        const items = (params as { items: Array<{ section?: string }> }).items;
        return items.map((item) => (item.section === 'sdformat' ? settings : item.section ? null : { sdformat: settings }));
      }
      return null; // client/registerCapability, window/workDoneProgress/create, ...
    });
    connection.listen();
  }

  /** Waits until `check` returns a value (re-checked on every publishDiagnostics). */
  waitForDiagnostics<T>(check: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    return new Promise((resolve) => {
      const done = (value: T | undefined) => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(value);
      };
      const waiter = () => {
        const value = check();
        if (value !== undefined) {
          done(value);
        }
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      this.waiters.push(waiter);
      waiter();
    });
  }

  latestDiagnostics(uri: string): PublishDiagnosticsParams | undefined {
    for (const [key, list] of this.diagnostics) {
      if (samePath(key, uri)) {
        return list[list.length - 1];
      }
    }
    return undefined;
  }
}

describe('sdformat_lsp over stdio (vscode-jsonrpc)', () => {
  const unavailable = serverUnavailable();
  const text = fs.readFileSync(FIXTURE, 'utf8');
  const uri = pathToFileURL(FIXTURE).href;
  let client: TestClient | undefined;
  let initResult: InitializeResult | undefined;

  before(async () => {
    if (unavailable) {
      return;
    }
    // Exactly what the extension does, minus the editor: resolve, preflight, spawn.
    const sc = resolveServerCommand({ setting: [], defaultPython: PYTHON });
    assert.deepEqual(sc.args, ['-m', 'sdformat_lsp']);
    const problem = await preflight(sc, { cwd: FIXTURES });
    assert.equal(problem, undefined, problem?.message);
    const server = await spawnServer(sc, { cwd: FIXTURES });
    const connection = createMessageConnection(
      new StreamMessageReader(server.process.stdout!),
      new StreamMessageWriter(server.process.stdin!),
    );
    const settings = buildServerSettings({ resourcePaths: [FIXTURES], debounceMs: 50 });
    client = new TestClient(server, connection, settings);
    const exitedEarly = server.exited.then((exit) => {
      throw new Error(`server exited during initialize (${JSON.stringify(exit)}):\n${server.stderrTail()}`);
    });
    initResult = await Promise.race([
      connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        clientInfo: { name: 'sdformat-lsp node:test' },
        rootUri: pathToFileURL(FIXTURES).href,
        workspaceFolders: [{ uri: pathToFileURL(FIXTURES).href, name: 'fixtures' }],
        capabilities: {
          general: { positionEncodings: ['utf-16'] },
          workspace: { configuration: true, workspaceFolders: true, didChangeConfiguration: { dynamicRegistration: true } },
          textDocument: {
            synchronization: { dynamicRegistration: false, didSave: true },
            hover: { contentFormat: ['markdown', 'plaintext'] },
            definition: { linkSupport: false },
            publishDiagnostics: { relatedInformation: true },
          },
        },
        initializationOptions: settings,
      }),
      exitedEarly,
    ]);
    exitedEarly.catch(() => undefined);
    await connection.sendNotification(InitializedNotification.type, {});
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'sdformat', version: 1, text },
    });
  });

  after(async () => {
    if (!client) {
      return;
    }
    const { connection, server } = client;
    if (!server.hasExited()) {
      try {
        await within(connection.sendRequest(ShutdownRequest.type), 3000);
        await connection.sendNotification(ExitNotification.type);
      } catch {
        // fall through to terminate
      }
    }
    await server.terminate(3000);
    connection.dispose();
  });

  it('initializes with hover and definition support', { timeout: TIMEOUT }, (t) => {
    if (unavailable) {
      t.skip(unavailable);
      return;
    }
    const caps = JSON.stringify(initResult?.capabilities);
    assert.ok(initResult?.capabilities.hoverProvider, `hoverProvider not advertised; capabilities: ${caps}`);
    assert.ok(initResult?.capabilities.definitionProvider, `definitionProvider not advertised; capabilities: ${caps}`);
  });

  it('publishes FRAME_ATTACHED_TO_INVALID on the attached_to value', { timeout: TIMEOUT }, async (t) => {
    if (unavailable || !client) {
      t.skip(unavailable ?? 'server not started');
      return;
    }
    const c = client;
    const start = positionAt(text, offsetOf(text, 'attached_to="missing"', 'attached_to="'.length));
    const end = { line: start.line, character: start.character + 'missing'.length };
    const matches = (params: PublishDiagnosticsParams | undefined) =>
      params?.diagnostics.filter((d) => d.code === 'FRAME_ATTACHED_TO_INVALID');
    const found = await c.waitForDiagnostics(() => {
      const m = matches(c.latestDiagnostics(uri));
      return m && m.length > 0 ? m : undefined;
    }, 20000);
    const latest = c.latestDiagnostics(uri);
    assert.ok(latest, `no publishDiagnostics for ${uri}; got ${[...c.diagnostics.keys()].join(', ') || 'none'}`);
    assert.ok(found, `no FRAME_ATTACHED_TO_INVALID diagnostic; latest: ${JSON.stringify(latest.diagnostics, null, 1)}`);
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.deepEqual(found[0].range, { start, end }, 'range covers exactly the value "missing"');
    t.diagnostic(`diagnostic: ${found[0].message}`);
  });

  it('hover on a link name shows the resolved pose', { timeout: TIMEOUT }, async (t) => {
    if (unavailable || !client) {
      t.skip(unavailable ?? 'server not started');
      return;
    }
    const position = positionAt(text, offsetOf(text, '<link name="L1">', '<link name="'.length + 1));
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
    assert.ok(hover, 'hover result');
    assert.ok(MarkupContent.is(hover.contents), `MarkupContent expected, got ${JSON.stringify(hover.contents)}`);
    assert.equal(hover.contents.kind, 'markdown');
    assert.match(hover.contents.value, /xyz/);
    t.diagnostic(`hover: ${hover.contents.value.replace(/\n/g, '\\n')}`);
  });

  it('definition on relative_to="L1" goes to <link name="L1">', { timeout: TIMEOUT }, async (t) => {
    if (unavailable || !client) {
      t.skip(unavailable ?? 'server not started');
      return;
    }
    const position = positionAt(text, offsetOf(text, 'relative_to="L1"', 'relative_to="'.length + 1));
    const target = positionAt(text, offsetOf(text, '<link name="L1">', '<link name="'.length));
    const result = await client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position });
    assert.ok(result, 'definition result');
    const list: Array<Location | LocationLink> = Array.isArray(result) ? result : [result];
    assert.ok(list.length >= 1, 'at least one location');
    const first = list[0];
    assert.ok(Location.is(first), `a Location (the client announced linkSupport: false), got ${JSON.stringify(first)}`);
    assert.ok(samePath(first.uri, uri), `same document, got ${first.uri}`);
    assert.deepEqual(first.range.start, target, 'range starts on L1 in <link name="L1">');
  });

  it('shuts down cleanly', { timeout: TIMEOUT }, async (t) => {
    if (unavailable || !client) {
      t.skip(unavailable ?? 'server not started');
      return;
    }
    const { connection, server } = client;
    await connection.sendRequest(ShutdownRequest.type);
    await connection.sendNotification(ExitNotification.type);
    const exit = await within(server.exited, 5000);
    assert.ok(exit, 'server exits after shutdown/exit');
    assert.equal(exit.code, 0, `exit code; stderr:\n${server.stderrTail()}`);
  });
});
