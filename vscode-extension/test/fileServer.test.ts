// The 3D view's file server: the files the frames name, over HTTP on the loopback, and nothing else.

import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, describe as suite, it } from 'node:test';
import { FileServer } from '../src/fileServer';

const dir = mkdtempSync(join(tmpdir(), 'file-server-'));
const mesh = join(dir, 'part.dae');
const image = join(dir, 'photo.png');
const secret = join(dir, 'secret.txt');
const fifo = join(dir, 'pipe.png');
execFileSync('mkfifo', [fifo]);
const dae = `<?xml version="1.0"?><COLLADA>${'<node id="n"/>'.repeat(400)}</COLLADA>`;
writeFileSync(mesh, dae);
writeFileSync(image, Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
writeFileSync(secret, 'not named by the frames');
const named = new Map([
  ['https://webview/part.dae', mesh],
  ['https://webview/photo.png', image],
  ['https://webview/pipe.png', fifo],
]);
const server = new FileServer((address) => named.get(address));
after(() => server.dispose());

async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const port = await server.port();
  return fetch(`http://127.0.0.1:${port}${path}`, { method, headers });
}

suite('file server', () => {
  it('answers 404 for a named path that is not a regular file (a FIFO would block a read forever)', async () => {
    const r = await get(`/${server.token}/file?u=${encodeURIComponent('https://webview/pipe.png')}`);
    assert.equal(r.status, 404);
    assert.match(await r.text(), /not a regular file/);
  });

  it('serves a file the frames name, readable from another origin', async () => {
    const r = await get(`/${server.token}/file?u=${encodeURIComponent('https://webview/photo.png')}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual([...new Uint8Array(await r.arrayBuffer())], [0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
  });

  it('serves under a proxy prefix (code-server /proxy/<port>/) too', async () => {
    const r = await get(`/proxy/1234/${server.token}/file?u=${encodeURIComponent('https://webview/photo.png')}`);
    assert.equal(r.status, 200);
  });

  it('sends a text mesh gzipped when the browser accepts it, and as it is otherwise', async () => {
    const port = await server.port();
    const raw = await new Promise<{ encoding?: string; body: Buffer }>((done, fail) => {
      // node's fetch inflates by itself: read the bytes as they are sent
      http
        .get({ host: '127.0.0.1', port, path: `/${server.token}/file?u=${encodeURIComponent('https://webview/part.dae')}`, headers: { 'accept-encoding': 'gzip, br' } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => done({ encoding: res.headers['content-encoding'], body: Buffer.concat(parts) }));
        })
        .on('error', fail);
    });
    assert.equal(raw.encoding, 'gzip');
    assert.ok(raw.body.byteLength < dae.length / 5);
    assert.equal(gunzipSync(raw.body).toString(), dae);
    const plain = await get(`/${server.token}/file?u=${encodeURIComponent('https://webview/part.dae')}`, { 'accept-encoding': 'identity' });
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.equal(await plain.text(), dae);
  });

  it('refuses a file the frames do not name, a wrong token, and other methods', async () => {
    for (const path of [
      `/${server.token}/file?u=${encodeURIComponent(secret)}`,
      `/${server.token}/file?u=${encodeURIComponent('file://' + secret)}`,
      `/${'0'.repeat(32)}/file?u=${encodeURIComponent('https://webview/photo.png')}`,
      `/file?u=${encodeURIComponent('https://webview/photo.png')}`,
      `/${server.token}/`,
    ]) {
      const r = await get(path);
      assert.equal(r.status, 404, path);
      assert.doesNotMatch(await r.text(), /not named by the frames/);
    }
    const put = await get(`/${server.token}/file?u=${encodeURIComponent('https://webview/photo.png')}`, {}, 'DELETE');
    assert.equal(put.status, 405);
  });

  it('tells a private-network preflight that the page may reach it', async () => {
    const r = await get(`/${server.token}/file`, { 'access-control-request-private-network': 'true', 'access-control-request-method': 'GET', origin: 'vscode-webview://x' }, 'OPTIONS');
    assert.equal(r.status, 204);
    assert.equal(r.headers.get('access-control-allow-private-network'), 'true');
  });

  it('listens on the loopback only, under a random token', async () => {
    const other = new FileServer(() => undefined);
    try {
      assert.match(server.token, /^[0-9a-f]{32}$/);
      assert.notEqual(other.token, server.token);
      assert.ok((await server.port()) > 0);
      // @ts-expect-error: the node server, for its address
      assert.equal(server.server.address().address, '127.0.0.1');
    } finally {
      other.dispose();
    }
  });
});
