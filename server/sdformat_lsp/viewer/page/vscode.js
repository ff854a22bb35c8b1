// The page in a VS Code webview (bundled with three.js into the extension's dist/preview.js): the
// extension posts the frames of the active document and answers the page's `ready` (messages sent
// before it are kept until then, by the extension); joint values survive the webview's reloads.
import { start } from './viewer.js';
import { setFileReader, setMeshWorkers, startMeshWorkers, workerCount } from './meshes.js';

const vscode = acquireVsCodeApi();

// COLLADA files are parsed in workers running the extension's dist/meshworker.js (its address is on this
// script's tag). A webview may not start a worker from its resource address (another origin): the script is
// read once and each worker started from a blob: URL, which the webview's Content-Security-Policy allows
// (worker-src blob:, src/frames.ts).
const workerUrl = document.currentScript && document.currentScript.dataset.worker;
if (workerUrl) {
  let source;
  setMeshWorkers(async () => {
    source = source || fetch(workerUrl)
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`HTTP ${r.status} for the worker's script`))))
      .then((text) => URL.createObjectURL(new Blob([text], { type: 'text/javascript' })));
    return new Worker(await source);
  }, workerCount());
  startMeshWorkers(); // its script read before the page asks for its frames, hence before any mesh file
}

// The meshes and textures the frames name are fetched from the extension's file server (src/fileServer.ts, its
// address on this script's tag): over HTTP the bytes go through the browser's network service, never through the
// workbench's thread, which every message to a webview crosses (in code-server that thread is this page's too).
// Without the server, or when a fetch fails, the extension reads the file and posts its bytes (src/frames.ts
// `read`), text meshes gzipped.
let filesUrl = (document.currentScript && document.currentScript.dataset.files) || '';
const reads = new Map(); // id -> {resolve, reject}
let nextRead = 0;
/** How the files came: fetched from the extension's file server, or posted by the extension (for tests). */
const readCounts = { served: 0, posted: 0 };
window.__sdfViewReads = readCounts;
window.addEventListener('message', (event) => {
  const m = event.data;
  if (!m || m.type !== 'file' || !reads.has(m.id)) return;
  const { resolve, reject } = reads.get(m.id);
  reads.delete(m.id);
  if (m.data instanceof Uint8Array) {
    const data = m.data.byteOffset === 0 && m.data.byteLength === m.data.buffer.byteLength ? m.data.buffer : m.data.slice().buffer;
    readCounts.posted++;
    // gzipped text meshes (src/frames.ts): meshes.js inflates them, in the mesh worker when it parses the file
    resolve(m.encoding === 'gzip' ? { gzip: data } : data);
  } else reject(new Error(m.error || 'not read'));
});
function posted(url) {
  return new Promise((resolve, reject) => {
    const id = nextRead++;
    reads.set(id, { resolve, reject });
    vscode.postMessage({ type: 'read', id, url });
  });
}
async function served(url) {
  let r;
  try {
    r = await fetch(`${filesUrl}?u=${encodeURIComponent(url)}`);
  } catch (e) {
    // the server cannot be reached from here (a policy, a proxy): every file is posted from now on
    console.warn(`sdformat-lsp view: the extension posts the files (its file server is not reachable: ${e && e.message})`);
    filesUrl = '';
    return posted(url);
  }
  if (!r.ok) return posted(url);
  readCounts.served++;
  return r.arrayBuffer();
}
setFileReader((url) => (filesUrl ? served(url) : posted(url)));
start({
  post: (message) => vscode.postMessage(message),
  onMessage: (handler) => window.addEventListener('message', (event) => handler(event.data)),
  saved: () => vscode.getState(),
  save: (state) => vscode.setState(state),
});
