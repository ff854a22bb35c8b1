// The page in a VS Code webview (bundled with three.js into the extension's dist/preview.js): the
// extension posts the frames of the active document and answers the page's `ready` (messages sent
// before it are kept until then, by the extension); joint values survive the webview's reloads.
import { start } from './viewer.js';
import { setFileReader, setMeshWorkers, startMeshWorkers, workerCount } from './meshes.js';

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

const vscode = acquireVsCodeApi();

// The meshes and textures the frames name are read by the extension and posted here (src/frames.ts `read`),
// text meshes gzipped.
const reads = new Map(); // id -> {resolve, reject}
let nextRead = 0;
window.addEventListener('message', (event) => {
  const m = event.data;
  if (!m || m.type !== 'file' || !reads.has(m.id)) return;
  const { resolve, reject } = reads.get(m.id);
  reads.delete(m.id);
  if (m.data instanceof Uint8Array) {
    const data = m.data.byteOffset === 0 && m.data.byteLength === m.data.buffer.byteLength ? m.data.buffer : m.data.slice().buffer;
    // gzipped text meshes (src/frames.ts): meshes.js inflates them, in the mesh worker when it parses the file
    resolve(m.encoding === 'gzip' ? { gzip: data } : data);
  } else reject(new Error(m.error || 'not read'));
});
setFileReader((url) => new Promise((resolve, reject) => {
  const id = nextRead++;
  reads.set(id, { resolve, reject });
  vscode.postMessage({ type: 'read', id, url });
}));
start({
  post: (message) => vscode.postMessage(message),
  onMessage: (handler) => window.addEventListener('message', (event) => handler(event.data)),
  saved: () => vscode.getState(),
  save: (state) => vscode.setState(state),
});
