// The Frames view is offered whenever an SDFormat, URDF or xacro editor is the active one, not only
// when the Explorer has such a file selected (issue 23): FrameSource sets the `sdformat.modelEditor`
// context from the active editor, and the manifest's `when` of the view reads it.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { createVscodeMock } from './support/vscode-mock';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Module = require('node:module');
const ROOT = path.resolve(__dirname, '..', '..');
const FRAMES = path.join(ROOT, 'out', 'src', 'frames.js');

type Editor = { document: { languageId: string } };

function loadFrames(mock: ReturnType<typeof createVscodeMock>) {
  const originalLoad = Module._load;
  Module._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? mock.vscode : originalLoad.call(this, request, ...rest);
  };
  try {
    delete require.cache[FRAMES];
    return require(FRAMES) as { FrameSource: new (client: () => undefined, wanted: () => boolean) => { dispose(): void } };
  } finally {
    Module._load = originalLoad;
  }
}

function modelEditorContext(executed: Array<{ command: string; args: unknown[] }>): unknown[] {
  return executed.filter((e) => e.command === 'setContext' && e.args[0] === 'sdformat.modelEditor').map((e) => e.args[1]);
}

describe('the Frames view follows the active editor', () => {
  it('marks an SDFormat, URDF or xacro editor active, and any other not', () => {
    const mock = createVscodeMock({});
    let listener: ((editor: Editor | undefined) => void) | undefined;
    const window = mock.vscode.window as Record<string, unknown>;
    window.activeTextEditor = { document: { languageId: 'urdf' } };
    window.onDidChangeActiveTextEditor = (fn: (editor: Editor | undefined) => void) => {
      listener = fn;
      return new mock.vscode.Disposable();
    };
    const { FrameSource } = loadFrames(mock);
    const source = new FrameSource(() => undefined, () => false);
    try {
      assert.deepEqual(modelEditorContext(mock.executed), [true], 'a URDF editor active when the extension starts');
      assert.ok(listener, 'FrameSource listens to the active editor');
      for (const languageId of ['plaintext', 'xacro', 'markdown', 'sdformat']) listener({ document: { languageId } });
      // focus moving to a panel or webview (no text editor) leaves the last answer standing
      listener(undefined);
      assert.deepEqual(modelEditorContext(mock.executed), [true, false, true, false, true]);
    } finally {
      source.dispose();
    }
  });

  it('is what the view is offered on in the manifest', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const view = manifest.contributes.views.explorer.find((v: { id: string }) => v.id === 'sdformat.frames');
    assert.match(view.when, /(^|\|\|\s*)sdformat\.modelEditor(\s*\|\||$)/);
  });
});
