// The command "SDFormat: Convert to URDF" end to end: the bundled extension (dist/extension.js)
// against a mock `vscode` module, with the real Python server of this checkout (server/, on
// PYTHONPATH) started by the extension. The active document is converted by the server and opened
// in a new untitled URDF editor; a model URDF cannot express, or a document the server does not
// have, gives one error message saying why. Skipped when `<python> -c "import sdformat_lsp"` fails.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { createVscodeMock, Uri } from './support/vscode-mock';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Module = require('node:module');

const ROOT = path.resolve(__dirname, '..', '..');
const BUNDLE = path.join(ROOT, 'dist', 'extension.js');
const SERVER_DIR = path.resolve(ROOT, '..', 'server');
const PYTHON = process.env.SDFORMAT_LSP_PYTHON || 'python3';
const TIMEOUT = 90000;

const withServer = { ...process.env, PYTHONPATH: [SERVER_DIR, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter) };
// The package imports its dependencies lazily, so `import sdformat_lsp` passes on an interpreter without pygls or
// lxml; the server's own module does not, and a server that cannot start is a skip here, not a failure.
const unavailable =
  spawnSync(PYTHON, ['-c', 'import sdformat_lsp.server.app'], { env: withServer }).status !== 0 &&
  `${PYTHON} cannot import sdformat_lsp.server.app (set SDFORMAT_LSP_PYTHON to an interpreter with the server's dependencies)`;

const SLIDER = `<?xml version="1.0"?>
<sdf version="1.11">
  <model name="slider">
    <link name="base"/>
    <link name="carriage"><pose>0.5 0 0.2 0 0 0</pose></link>
    <joint name="slide" type="prismatic">
      <parent>base</parent><child>carriage</child>
      <axis><xyz>1 0 0</xyz><limit><lower>0</lower><upper>1</upper></limit></axis>
    </joint>
  </model>
</sdf>
`;

const BALL = `<?xml version="1.0"?>
<sdf version="1.11">
  <model name="arm">
    <link name="base"/>
    <link name="upper"/>
    <joint name="shoulder" type="ball"><parent>base</parent><child>upper</child></joint>
  </model>
</sdf>
`;

interface ExtensionModule {
  activate(context: unknown): Promise<void>;
  started(): Promise<void>;
  deactivate(): Promise<void>;
}

/** A text document as the language client reads it. */
function textDocument(file: string) {
  return {
    uri: Uri.file(file),
    fileName: file,
    languageId: 'sdformat',
    version: 1,
    isClosed: false,
    isUntitled: false,
    isDirty: false,
    getText: () => fs.readFileSync(file, 'utf8'),
  };
}

describe('Convert to URDF (bundle, mock vscode, real server)', { skip: unavailable }, () => {
  let restore: (() => void) | undefined;
  let ext: ExtensionModule | undefined;
  const saved = process.env.PYTHONPATH;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdformat-urdf-'));

  after(async () => {
    await ext?.deactivate();
    restore?.();
    if (saved === undefined) delete process.env.PYTHONPATH;
    else process.env.PYTHONPATH = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens the URDF of the active document in a new editor, and says why when it cannot', { timeout: TIMEOUT }, async () => {
    const slider = path.join(dir, 'slider.sdf');
    const ball = path.join(dir, 'ball.sdf');
    const closed = path.join(dir, 'closed.sdf');
    fs.writeFileSync(slider, SLIDER);
    fs.writeFileSync(ball, BALL);
    fs.writeFileSync(closed, SLIDER);
    const mock = createVscodeMock({ 'sdformat.server.command': [PYTHON, '-m', 'sdformat_lsp'] }, { workspaceFolder: dir });
    const docs = [textDocument(slider), textDocument(ball)];
    const opened: Array<{ language?: string; content?: string }> = [];
    const shown: unknown[] = [];
    const v = mock.vscode as any;
    v.workspace.textDocuments = docs; // sent to the server (didOpen) when the client starts
    v.languages.match = () => 10; // every document matches the extension's selector
    v.workspace.openTextDocument = async (options: { language?: string; content?: string }) => {
      opened.push(options);
      return { uri: Uri.parse(`untitled:Untitled-${opened.length}`), languageId: options.language, getText: () => options.content };
    };
    v.window.showTextDocument = async (document: unknown, options: unknown) => {
      shown.push([document, options]);
      return { document };
    };

    process.env.PYTHONPATH = withServer.PYTHONPATH;
    const originalLoad = Module._load;
    Module._load = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? mock.vscode : originalLoad.call(this, request, ...rest);
    };
    restore = () => (Module._load = originalLoad);
    delete require.cache[BUNDLE];
    ext = require(BUNDLE) as ExtensionModule;
    await ext.activate(mock.context);
    await ext.started();
    assert.ok(mock.commands.has('sdformat.convertToUrdf'), 'the command is registered');

    // The slider: a URDF with the prismatic joint, its origin the child's pose in the parent's frame.
    v.window.activeTextEditor = { document: docs[0] };
    // The client opens the documents in the server as it starts; until the server has them it says "not open".
    for (let tries = 0; opened.length === 0 && tries < 100; tries++) {
      await mock.vscode.commands.executeCommand('sdformat.convertToUrdf');
      if (opened.length === 0) {
        assert.match(mock.messages.pop()?.message ?? '', /not open/);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    assert.equal(opened.length, 1);
    assert.equal(opened[0].language, 'urdf');
    assert.match(opened[0].content!, /<robot name="slider">/);
    assert.match(opened[0].content!, /<joint name="slide" type="prismatic">\s*<origin xyz="0.5 0 0.2" rpy="0 0 0"\/>/);
    assert.equal(shown.length, 1);
    assert.deepEqual((shown[0] as unknown[])[1], { preview: false });
    assert.equal(mock.messages.length, 0, JSON.stringify(mock.messages));

    // A ball joint: nothing opened, one error naming the joint.
    v.window.activeTextEditor = { document: docs[1] };
    await mock.vscode.commands.executeCommand('sdformat.convertToUrdf');
    assert.equal(opened.length, 1);
    assert.equal(mock.messages.length, 1, JSON.stringify(mock.messages));
    assert.equal(mock.messages[0].kind, 'error');
    assert.match(mock.messages[0].message, /^Cannot convert to URDF: .*'shoulder'.*ball/);

    // A document the server does not have open: the server's refusal, as one error message.
    v.window.activeTextEditor = { document: textDocument(closed) };
    await mock.vscode.commands.executeCommand('sdformat.convertToUrdf');
    assert.equal(opened.length, 1);
    assert.equal(mock.messages.length, 2, JSON.stringify(mock.messages));
    assert.match(mock.messages[1].message, /^Cannot convert to URDF: .*not open/);

    // No active editor: said, nothing sent.
    v.window.activeTextEditor = undefined;
    await mock.vscode.commands.executeCommand('sdformat.convertToUrdf');
    assert.equal(mock.messages.length, 3);
    assert.match(mock.messages[2].message, /open an SDFormat file/);
  });
});
