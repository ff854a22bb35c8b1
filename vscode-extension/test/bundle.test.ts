// The server the .vsix carries (bundled/, made by `npm run package`): it must run with
// nothing but the Python standard library, so the interpreter is started isolated (-I: no
// PYTHONPATH, no user site) and without site-packages (-S): only what run.py adds.

import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const ROOT = path.resolve(__dirname, '..', '..');
const RUN = path.join(ROOT, 'bundled', 'run.py');
const PYTHON = process.env.SDFORMAT_LSP_PYTHON || 'python3';
const EXAMPLE = path.join(ROOT, '..', 'examples', 'broken_arm.sdf');
const skip = !fs.existsSync(RUN) ? 'no bundled server (npm run package makes it)' : spawnSync(PYTHON, ['-c', 'pass']).status !== 0 ? `${PYTHON} not available` : false;

function frame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

describe('bundled server', { skip }, () => {
  it('checks a file with only the standard library besides the bundle', () => {
    const r = spawnSync(PYTHON, ['-I', '-S', RUN, 'check', EXAMPLE], { encoding: 'utf8', timeout: 60000 });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /POSE_RELATIVE_TO_INVALID/);
  });

  it('answers initialize over stdio (pygls and lsprotocol come from the bundle)', { timeout: 60000 }, async () => {
    const child = spawn(PYTHON, ['-I', '-S', RUN], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const answered = new Promise<Record<string, any>>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d.toString('utf8');
        const body = out.split('\r\n\r\n')[1];
        if (body) {
          try {
            resolve(JSON.parse(body));
          } catch {
            // not complete yet
          }
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    child.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));
    const response = await answered;
    assert.ok(response.result.capabilities.hoverProvider, JSON.stringify(response));
    assert.ok(response.result.capabilities.inlayHintProvider);
    child.stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }));
    child.stdin.write(frame({ jsonrpc: '2.0', method: 'exit' }));
    await new Promise((resolve) => child.on('exit', resolve));
  });
});
