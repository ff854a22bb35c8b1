// The page in a VS Code webview (bundled with three.js into the extension's dist/preview.js): the
// extension posts the frames of the active document and answers the page's `ready` (messages sent
// before it are kept until then, by the extension); joint values survive the webview's reloads.
import { start } from './viewer.js';

const vscode = acquireVsCodeApi();
start({
  post: (message) => vscode.postMessage(message),
  onMessage: (handler) => window.addEventListener('message', (event) => handler(event.data)),
  saved: () => vscode.getState(),
  save: (state) => vscode.setState(state),
});
