// The page in a VS Code webview (bundled with three.js into the extension's dist/preview.js): the
// extension posts the frames of the active document and answers the page's `ready` (messages sent
// before it are kept until then, by the extension); joint values survive the webview's reloads.
import { start } from './viewer.js';
import { setMeshWorkers, workerCount } from './meshes.js';

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
}

const vscode = acquireVsCodeApi();
start({
  post: (message) => vscode.postMessage(message),
  onMessage: (handler) => window.addEventListener('message', (event) => handler(event.data)),
  saved: () => vscode.getState(),
  save: (state) => vscode.setState(state),
});
