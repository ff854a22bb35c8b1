// The meshes and images of the 3D view served over HTTP on the loopback, for the webview to fetch itself.
//
// Why: whatever the extension posts to a webview crosses the workbench's thread (in code-server: a websocket handled
// there, and the webview's page runs on that thread too), and so does the webview's own reading of its resources.
// small_house.world's 62 meshes and 83 images (34 MB of PNG and JPG) took 5 s of that thread to arrive, frame after
// frame of a frozen editor. Fetched over HTTP, the bytes go through the browser's network service instead, and the
// images are decoded off the page's thread (createImageBitmap): the workbench's thread never holds them.
// The address the page fetches is the one `vscode.env.asExternalUri` gives for the server: the loopback itself in
// desktop VS Code, a forwarded port when the extension host is remote, code-server's `/proxy/<port>/` in a browser.
//
// Only the files the frames name are served (the `files` map the preview fills), under a random token; anything
// else, a wrong token, or a method other than GET, HEAD and OPTIONS is refused. Text meshes are sent gzipped when
// the browser accepts it (small_house's COLLADA: 27.8 MB as 5.7 MB).

import * as http from 'http';
import { randomBytes } from 'crypto';
import { promisify } from 'util';
import { gzip } from 'zlib';
import { readFile, stat } from 'fs/promises';

// Mesh formats that may be text (COLLADA, OBJ and its materials, ASCII STL, glTF's JSON): sent gzipped when that
// is smaller. Images (and GLB) are compressed already; trying them would only cost time.
const COMPRESSIBLE = /\.(dae|obj|mtl|stl|gltf)$/i;
const gzipAsync = promisify(gzip);

/** The bytes to send for a file: gzipped (in libuv's thread pool, off the extension host's thread) when its format
 * may be text and the result is at least a fifth smaller, else as read. */
export async function packed(path: string, bytes: Uint8Array): Promise<{ data: Uint8Array; encoding?: 'gzip' }> {
  if (!COMPRESSIBLE.test(path) || bytes.byteLength < 1024) return { data: bytes };
  const z = await gzipAsync(bytes, { level: 6 });
  if (z.byteLength > bytes.byteLength * 0.8) return { data: bytes };
  return { data: new Uint8Array(z.buffer, z.byteOffset, z.byteLength), encoding: 'gzip' };
}

/** Answers `GET /<token>/file?u=<address>` with the file `files` maps the address to (a local path). */
export class FileServer {
  private server: http.Server | undefined;
  private listening: Promise<number> | undefined;
  readonly token = randomBytes(16).toString('hex');
  /** Requests answered with a file (for tests and the output channel). */
  served = 0;

  constructor(private readonly files: (address: string) => string | undefined) {}

  /** The port it listens on, 127.0.0.1 only (started at the first call). */
  port(): Promise<number> {
    this.listening ??= new Promise<number>((resolve, reject) => {
      const server = http.createServer((req, res) => void this.answer(req, res));
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
      this.server = server;
    });
    return this.listening;
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    // the webview's origin differs from the server's (vscode-webview://… in desktop VS Code): it may read the answer
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method === 'OPTIONS') {
      // Chromium asks a loopback server whether a page may reach it (Private Network Access)
      res.writeHead(204, { 'Access-Control-Allow-Private-Network': 'true', 'Access-Control-Allow-Methods': 'GET' });
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // behind code-server's /proxy/<port>/ the path arrives without that prefix: only its end is looked at
    const path = url.pathname.endsWith(`/${this.token}/file`) ? this.files(url.searchParams.get('u') ?? '') : undefined;
    if ((req.method !== 'GET' && req.method !== 'HEAD') || path === undefined) {
      res.writeHead(req.method === 'GET' || req.method === 'HEAD' ? 404 : 405, { 'Content-Type': 'text/plain' });
      res.end('not a file the frames name');
      return;
    }
    let bytes: Uint8Array;
    try {
      // a FIFO or device put there would hold a libuv pool thread forever: regular files only
      if (!(await stat(path)).isFile()) throw new Error('not a regular file');
      bytes = await readFile(path);
    } catch (e) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end(e instanceof Error ? e.message : String(e));
      return;
    }
    const accepts = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const { data, encoding } = accepts ? await packed(path, bytes) : { data: bytes, encoding: undefined };
    const headers: http.OutgoingHttpHeaders = {
      'Content-Type': 'application/octet-stream',
      'Content-Length': data.byteLength,
      'Cache-Control': 'no-store', // a file may change between two reads (the page asks again by version)
      'Timing-Allow-Origin': '*', // its sizes readable by the page's measures (scripts/view_vscode.py, tests)
    };
    if (encoding) headers['Content-Encoding'] = encoding;
    res.writeHead(200, headers);
    this.served++;
    res.end(req.method === 'HEAD' ? undefined : data);
  }

  dispose(): void {
    this.server?.close();
    this.server = undefined;
    this.listening = undefined;
  }
}
