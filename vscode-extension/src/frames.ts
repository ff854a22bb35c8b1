// The frames of the active SDFormat document, seen two ways: a tree view (each frame with
// its resolved pose and the link it is attached to; click to reveal) and a 3D preview in a
// webview (dist/preview.js, three.js bundled: no network). Both show the server's
// `sdformat/frames` answer (docs/server.md) and follow edits.

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { FileServer, packed } from './fileServer';
import { buildTree, describe, FrameEntry, FramesResult, shortName, tooltip, TreeNode } from './frameModel';

export const FRAMES_REQUEST = 'sdformat/frames';
const REFRESH_DELAY_MS = 250;
// the documents whose frames the view follows: SDFormat, URDF and xacro (the server answers sdformat/frames for each)
const FRAME_LANGUAGES = new Set(['sdformat', 'urdf', 'xacro']);

const ICONS: Record<string, string> = {
  world: 'globe',
  model: 'package',
  link: 'symbol-class',
  joint: 'symbol-interface',
  frame: 'symbol-field',
};

/** Fetches and caches the frames of the active sdformat document; fires when they change. */
export class FrameSource implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<FramesResult | undefined>();
  readonly onDidChange = this.changed.event;
  current: FramesResult | undefined;
  document: vscode.TextDocument | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private generation = 0;

  /**
   * `wanted`: whether anyone shows the frames now (the tree view visible, the preview open). Until
   * then nothing is asked: a file that opens costs the server no frames request while its first
   * diagnostics are computed, and a hidden view costs nothing on every edit.
   */
  constructor(
    private readonly client: () => LanguageClient | undefined,
    private readonly wanted: () => boolean = () => true,
  ) {
    // `sdformat.modelEditor`: an SDFormat, URDF or xacro editor is (or, while a webview or panel has the
    // focus, was last) the active one: the Frames view shows then, whatever the Explorer has selected
    const markActive = (editor: vscode.TextEditor | undefined) => {
      if (editor) void vscode.commands.executeCommand('setContext', 'sdformat.modelEditor', FRAME_LANGUAGES.has(editor.document.languageId));
    };
    markActive(vscode.window.activeTextEditor);
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        markActive(editor);
        this.schedule(0);
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === this.document) this.schedule(REFRESH_DELAY_MS);
      }),
    );
  }

  schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.wanted()) void this.refresh();
    }, ms);
  }

  async refresh(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const doc = editor && FRAME_LANGUAGES.has(editor.document.languageId) ? editor.document : this.document;
    const generation = ++this.generation;
    const client = this.client();
    if (!doc || !client || doc.isClosed) {
      this.set(undefined, undefined);
      return;
    }
    try {
      const result = (await client.sendRequest(FRAMES_REQUEST, { textDocument: { uri: doc.uri.toString() } })) as FramesResult | null;
      if (generation === this.generation) this.set(doc, result ?? undefined);
    } catch {
      if (generation === this.generation) this.set(doc, undefined); // the server is restarting; the next edit asks again
    }
  }

  private set(doc: vscode.TextDocument | undefined, result: FramesResult | undefined): void {
    this.document = doc;
    this.current = result;
    void vscode.commands.executeCommand('setContext', 'sdformat.hasFrames', Boolean(result && result.frames.length > 0));
    this.changed.fire(result);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}

/** Opens the frame's declaration and selects its name. */
export async function revealFrame(entry: FrameEntry | undefined): Promise<void> {
  const loc = entry?.location;
  if (!loc) return;
  const r = loc.range;
  const range = new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(loc.uri));
  const shown = vscode.window.visibleTextEditors.find((e) => e.document === doc);
  await vscode.window.showTextDocument(doc, { selection: range, viewColumn: shown?.viewColumn ?? vscode.ViewColumn.One });
}

/** The entry declared last before `position` in `uri` (the element the cursor is in, or just after). */
export function entryAt(result: FramesResult | undefined, uri: string, position: vscode.Position): FrameEntry | undefined {
  let best: FrameEntry | undefined;
  for (const f of result?.frames ?? []) {
    const loc = f.location;
    if (!loc || loc.uri !== uri) continue;
    const s = loc.range.start;
    if (s.line > position.line || (s.line === position.line && s.character > position.character)) continue;
    const b = best?.location?.range.start;
    if (!b || s.line > b.line || (s.line === b.line && s.character >= b.character)) best = f;
  }
  return best;
}

export class FrameTreeProvider implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: TreeNode[] = [];
  private readonly parents = new Map<TreeNode, TreeNode | undefined>();
  private readonly byId = new Map<number, TreeNode>();

  constructor(private readonly source: FrameSource) {
    source.onDidChange((result) => {
      this.roots = result ? buildTree(result.frames) : [];
      this.parents.clear();
      this.byId.clear();
      const stack: [TreeNode, TreeNode | undefined][] = this.roots.map((r) => [r, undefined]);
      while (stack.length) {
        const [n, p] = stack.pop()!;
        this.parents.set(n, p);
        this.byId.set(n.entry.id, n);
        for (const c of n.children) stack.push([c, n]);
      }
      this.changed.fire(undefined);
    });
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return this.parents.get(node);
  }

  node(id: number): TreeNode | undefined {
    return this.byId.get(id);
  }

  getChildren(node?: TreeNode): TreeNode[] {
    return node ? node.children : this.roots;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const e = node.entry;
    const root = this.source.current?.root;
    const rootLabel = root ? (root.kind === 'world' ? 'the world' : `__model__ of ${root.name}`) : 'the root';
    const item = new vscode.TreeItem(
      e.parent === null ? e.name : shortName(e),
      node.children.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.description = describe(e);
    item.tooltip = tooltip(e, rootLabel);
    item.iconPath = new vscode.ThemeIcon(e.problem && !e.pose ? 'warning' : ICONS[e.kind] ?? 'circle-outline');
    item.contextValue = e.kind;
    item.id = `${this.source.current?.uri}#${e.id}:${e.name}`;
    if (e.location) {
      item.command = { command: 'sdformat.revealFrame', title: 'Reveal', arguments: [e] };
    }
    return item;
  }
}

function nonce(): string {
  let s = '';
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  for (let i = 0; i < 32; i++) s += chars.charAt(Math.floor(Math.random() * chars.length));
  return s;
}

/** The 3D preview: one panel, following the active document. */
export class FramePreview implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  /** Whether the page said `ready`: until then messages wait in `queued` (a webview drops what it is sent before). */
  private ready = false;
  private queued: unknown[] = [];
  /** The files the page may ask for by message (`read`): its address for a mesh or a texture -> the file. */
  private readable = new Map<string, vscode.Uri>();
  /** Serves the same files over HTTP for the page to fetch itself, off the workbench's thread (fileServer.ts). */
  private readonly files = new FileServer((address) => {
    const file = this.readable.get(address);
    return file && file.scheme === 'file' ? file.fsPath : undefined;
  });

  /** Whether the 3D view is open (it then follows the active document). */
  get isOpen(): boolean {
    return this.panel !== undefined;
  }
  private readonly subscriptions: vscode.Disposable[] = [];
  /** What the webview last reported drawing (for the output channel and tests). */
  lastRendered: { frames: number; visuals: number; meshes: number; failedMeshes: number; joints?: number; drawMs?: number | null } | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly source: FrameSource,
    private readonly log: (line: string) => void,
  ) {
    this.subscriptions.push(source.onDidChange(() => this.post()));
  }

  /** Where the page fetches the files of the frames (its file server's address as the browser reaches it, see
   * fileServer.ts), or undefined when the server cannot be had: the page then asks for each file by message. */
  private async filesBase(): Promise<vscode.Uri | undefined> {
    try {
      const port = await this.files.port();
      const external = await vscode.env.asExternalUri(vscode.Uri.parse(`http://127.0.0.1:${port}/`));
      return external.with({ path: `${external.path.replace(/\/?$/, '/')}${this.files.token}/file`, query: '', fragment: '' });
    } catch (e) {
      this.log(`3D view: its files are posted to it (no file server: ${e instanceof Error ? e.message : String(e)})`);
      return undefined;
    }
  }

  async show(): Promise<void> {
    if (this.panel) {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
      return;
    }
    const panel = vscode.window.createWebviewPanel('sdformat.preview', 'SDFormat Frames (3D)', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: this.roots(),
    });
    this.panel = panel;
    this.ready = false;
    this.queued = [];
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.readable.clear();
      this.ready = false;
      this.queued = [];
    }, undefined, this.subscriptions);
    panel.webview.onDidReceiveMessage((m) => this.receive(m), undefined, this.subscriptions);
    const script = panel.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'preview.js'));
    const worker = panel.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'meshworker.js'));
    const n = nonce();
    const base = await this.filesBase();
    if (this.panel !== panel) return; // closed meanwhile
    const csp = [
      "default-src 'none'",
      `img-src ${panel.webview.cspSource} data: blob:`,
      `style-src ${panel.webview.cspSource} 'unsafe-inline'`,
      `script-src 'nonce-${n}'`,
      `connect-src ${panel.webview.cspSource}${base ? ` ${base.scheme}://${base.authority}` : ''}`,
      'worker-src blob:', // the mesh worker, started from its script read by the page (vscode.js)
    ].join('; ');
    panel.webview.html = `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style>html,body{margin:0;padding:0;overflow:hidden;height:100%;background:var(--vscode-editor-background);color:var(--vscode-editor-foreground);font-family:var(--vscode-font-family)}
#status{position:absolute;left:8px;bottom:6px;font-size:11px;opacity:.75;pointer-events:none}
canvas{display:block}</style></head>
<body><script nonce="${n}" src="${script}" data-worker="${worker}" data-files="${base ? base.toString().replace(/"/g, '%22') : ''}"></script></body></html>`;
    this.post();
  }

  /** The extension's files and every workspace folder (mesh files are loaded from there). */
  private roots(extra: vscode.Uri[] = []): vscode.Uri[] {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri);
    return [vscode.Uri.joinPath(this.extensionUri, 'dist'), ...folders, ...extra];
  }

  private post(): void {
    const panel = this.panel;
    const result = this.source.current;
    if (!panel) return;
    if (!result) {
      this.send({ type: 'frames', frames: [], root: null });
      return;
    }
    // Mesh files outside the workspace (model:// paths) become readable by the webview too.
    const meshDirs: vscode.Uri[] = [];
    const readable = new Map<string, vscode.Uri>();
    const frames = result.frames.map((f) => ({
      ...f,
      visuals: (f.visuals ?? []).map((v) => {
        if (!v.mesh) return v;
        const uri = vscode.Uri.parse(v.mesh);
        meshDirs.push(vscode.Uri.joinPath(uri, '..', '..')); // the mesh's folder and its textures' (../materials)
        const address = panel.webview.asWebviewUri(uri).toString();
        readable.set(address, uri);
        // the images a COLLADA mesh names, as the server found them (asked for with the mesh, not after it)
        let textures: Record<string, string> | null = null;
        for (const [ref, file] of Object.entries(v.textures ?? {})) {
          const image = vscode.Uri.parse(file);
          meshDirs.push(vscode.Uri.joinPath(image, '..'));
          (textures ??= {})[ref] = panel.webview.asWebviewUri(image).toString();
          readable.set(textures[ref], image);
        }
        return { ...v, mesh: address, textures };
      }),
    }));
    if (meshDirs.length > 0) panel.webview.options = { enableScripts: true, localResourceRoots: this.roots(meshDirs) };
    for (const [address, file] of readable) this.readable.set(address, file); // kept: the page may still read older ones
    panel.title = `Frames: ${result.root?.name || vscode.Uri.parse(result.uri).path.split('/').pop()}`;
    this.send({ type: 'frames', root: result.root, frames, truncated: result.truncated, uri: result.uri });
  }

  /** Posts to the page, or keeps the message until it says `ready` (only the newest frames matter). */
  private send(message: { type: string; [key: string]: unknown }): void {
    if (!this.panel) return;
    if (!this.ready) {
      this.queued = this.queued.filter((m) => (m as { type: string }).type !== message.type);
      this.queued.push(message);
      return;
    }
    void this.panel.webview.postMessage(message);
  }

  /** Outlines the element the cursor is in (the entry whose declaration holds the cursor). */
  highlight(id: number | null): void {
    if (id !== null) this.send({ type: 'highlight', id });
  }

  private receive(m: any): void {
    if (m?.type === 'ready') {
      this.ready = true;
      const waiting = this.queued;
      this.queued = [];
      for (const q of waiting) void this.panel?.webview.postMessage(q);
      if (waiting.length === 0) this.post(); // a reloaded page asks again
    } else if (m?.type === 'read' && typeof m.id === 'number' && typeof m.url === 'string') {
      void this.read(m.id, m.url);
    } else if (m?.type === 'reveal') {
      const entry = this.source.current?.frames.find((f) => f.id === m.id);
      void revealFrame(entry);
    } else if (m?.type === 'rendered') {
      this.lastRendered = { frames: m.frames, visuals: m.visuals, meshes: m.meshes, failedMeshes: m.placeholders ?? m.failedMeshes, joints: m.joints, drawMs: m.drawMs };
      this.log(`Preview drew ${m.frames} frames, ${m.visuals} visuals (${m.meshes} meshes, ${m.placeholders ?? m.failedMeshes} not drawn, ${m.joints ?? 0} joint sliders) in ${m.drawMs ?? '?'} ms.`);
      for (const p of (m.problems ?? []).slice(0, 10)) this.log(`  mesh not drawn: ${p}`);
    }
  }

  /** The bytes of a mesh or texture the frames named, posted to the page: the webview's own reading of its
   * resources hands every file through the workbench's thread several times (in code-server that thread is the
   * webview's too), about 10 MB/s for small_house's 45 MB of meshes and images; a message carries them once. */
  private async read(id: number, url: string): Promise<void> {
    const file = this.readable.get(url);
    let reply: { type: string; id: number; data?: Uint8Array; encoding?: string; error?: string };
    if (!file) reply = { type: 'file', id, error: 'not a file the frames name' };
    else {
      try {
        // a FIFO or device put there would hold a libuv pool thread forever: regular files only
        if (!((await vscode.workspace.fs.stat(file)).type & vscode.FileType.File)) throw new Error('not a regular file');
        const bytes = await vscode.workspace.fs.readFile(file);
        // Every byte posted crosses to the workbench's thread (in code-server, a websocket handled there, the
        // webview's thread too): text meshes go gzipped (small_house's .dae about 6x smaller) and are inflated
        // by the page's mesh worker (meshworker.js) or natively by the page (meshes.js).
        // A plain view: a Node Buffer would be sent through its toJSON, as an array of numbers.
        const { data, encoding } = await packed(file.path, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        reply = { type: 'file', id, data, encoding };
      } catch (e) {
        reply = { type: 'file', id, error: e instanceof Error ? e.message : String(e) };
      }
    }
    void this.panel?.webview.postMessage(reply);
  }

  dispose(): void {
    this.panel?.dispose();
    this.files.dispose();
    this.subscriptions.forEach((s) => s.dispose());
  }
}
