// The page in a browser, served by `sdformat-lsp view` (sdformat_lsp/viewer/http.py): the frames come
// from /api/frames, asked again when the server says the file changed (/api/wait long-polls: nothing
// runs while nothing changes); clicking an element shows where it is declared.
import { start } from './viewer.js';
import { setMeshWorkers, startMeshWorkers, workerCount } from './meshes.js';

const token = new URLSearchParams(location.search).get('token') || '';
const handlers = [];
let version = -1;
const host = {
  post(message) {
    if (message.type === 'reveal') {
      const f = latest && latest.frames.find((x) => x.id === message.id);
      const loc = f && f.location;
      if (loc) document.getElementById('sdf-status').textContent = `${f.kind} ${f.name}: ${decodeURIComponent(loc.uri.replace(/^file:\/\//, ''))}:${loc.range.start.line + 1}:${loc.range.start.character + 1}`;
    } else if (message.type === 'ready') {
      void follow();
    }
  },
  onMessage(handler) {
    handlers.push(handler);
  },
  saved() {
    try {
      return JSON.parse(sessionStorage.getItem('sdf-view') || 'null');
    } catch {
      return null;
    }
  },
  save(state) {
    sessionStorage.setItem('sdf-view', JSON.stringify(state));
  },
};

let latest = null;
async function follow() {
  for (;;) {
    try {
      const r = await fetch(`/api/wait?token=${encodeURIComponent(token)}&version=${version}`);
      if (r.status === 403) {
        document.getElementById('sdf-status').textContent = 'the token in the address is not this server\'s';
        return;
      }
      if (!r.ok) throw new Error(String(r.status));
      const answer = await r.json();
      if (answer.version !== version) {
        version = answer.version;
        latest = answer;
        document.title = `${answer.root ? answer.root.name : 'no frames'} — sdformat-lsp view`;
        for (const h of handlers) h({ type: 'frames', ...answer });
      }
    } catch {
      await new Promise((res) => setTimeout(res, 2000)); // the server stopped: try again later
    }
  }
}

// COLLADA files are parsed in module workers (meshworker.js; the server points their three.js imports at the
// vendored files)
setMeshWorkers(() => new Worker('/static/worker/page/meshworker.js', { type: 'module' }), workerCount());
startMeshWorkers(); // started before the frames are asked for, hence before any mesh file
start(host);
