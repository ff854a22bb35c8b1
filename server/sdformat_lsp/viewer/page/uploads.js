// Textures sent to the GPU before the draw that shows them, a few per task, and the draw held until the GPU has
// taken them in. With software WebGL (SwiftShader) and software compositing, as in code-server's chromium, each
// drawn frame is read back from the GPU process on the page's thread, which waits there for every WebGL command
// queued before it: a draw that also uploaded small_house's 85 images (decode, copy, mipmaps) held the page's
// thread, which in VS Code's webview is the workbench's, for 1.5-3 s. Here the images are decoded off the thread
// (HTMLImageElement.decode), uploaded in slices of about UPLOAD_SLICE_MS, and a WebGL2 fence tells when the GPU is
// done; only then is the frame drawn, and its read-back waits for the draw alone. New materials' shaders are
// compiled ahead too, in slices (linking waits for the GPU process where KHR_parallel_shader_compile is missing,
// as in code-server's SwiftShader), so that the frame does not wait for them. Still in the frame: software
// WebGL builds a program's pipeline at its first draw.
const UPLOAD_SLICE_MS = 25;
const POLL_MS = 10;

/** What the uploads cost (ms): shaders compiled ahead, textures sent (the page's thread), waiting for the GPU's fence,
 * and when the last upload ended (performance.now()). */
export const uploadTimes = { compileMs: 0, textureMs: 0, textures: 0, fenceMs: 0, lastEnd: 0 };

export function createUploads(renderer, scene, camera, slots) {
  const gl = renderer.getContext();
  const fences = typeof WebGL2RenderingContext !== 'undefined' && gl instanceof WebGL2RenderingContext;
  const sent = new WeakMap(); // texture -> the version uploaded
  const compiled = new Set(); // the materials (and whether instanced) whose shaders were compiled ahead of a draw
  const variant = (o, m) => `${m.uuid}:${o.isInstancedMesh ? 1 : 0}:${o.isMesh ? 1 : 0}`;
  let fence = null;
  let busy = false; // uploading or waiting for a fence

  let newMaterials = false;
  function pendingTextures() {
    const out = new Set();
    newMaterials = false;
    scene.traverse((o) => {
      if (!o.material || !o.visible) return;
      for (const m of [].concat(o.material)) {
        if (!compiled.has(variant(o, m))) newMaterials = true;
      }
      for (const m of [].concat(o.material)) for (const slot of slots) {
        const t = m[slot];
        if (t && t.isTexture && t.image && t.version > 0 && sent.get(t) !== t.version) out.add(t);
      }
    });
    return [...out];
  }

  function gpuDone() {
    if (!fence) return true;
    if (gl.getSyncParameter(fence, gl.SYNC_STATUS) !== gl.SIGNALED) return false;
    gl.deleteSync(fence);
    fence = null;
    return true;
  }

  function fenceNow() {
    if (!fences) return;
    if (fence) gl.deleteSync(fence);
    fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl.flush();
  }

  async function decoded(list) {
    await Promise.all(list.map((t) => (t.image instanceof HTMLImageElement && t.image.decode ? t.image.decode().catch(() => {}) : null)));
  }

  async function upload(list, then) {
    const c0 = performance.now();
    if (newMaterials) {
      // the objects with a material not compiled yet are compiled in slices of about UPLOAD_SLICE_MS, each its own
      // task: without KHR_parallel_shader_compile (SwiftShader in code-server) linking waits for the GPU process
      const fresh = [];
      scene.traverseVisible((o) => {
        if (o.material && [].concat(o.material).some((m) => !compiled.has(variant(o, m)))) fresh.push(o);
      });
      let t0 = performance.now();
      for (const o of fresh) {
        if (![].concat(o.material).some((m) => !compiled.has(variant(o, m)))) continue; // compiled with another
        if (performance.now() - t0 > UPLOAD_SLICE_MS) {
          await new Promise((res) => setTimeout(res, 0));
          t0 = performance.now();
        }
        renderer.compile(o, camera, scene);
        for (const m of [].concat(o.material)) compiled.add(variant(o, m));
      }
      await renderer.compileAsync(scene, camera); // with the extension: until the GPU has linked them
    }
    uploadTimes.compileMs += performance.now() - c0;
    await decoded(list);
    while (list.length) {
      const t0 = performance.now();
      while (list.length && performance.now() - t0 < UPLOAD_SLICE_MS) {
        const t = list.shift();
        renderer.initTexture(t);
        sent.set(t, t.version);
        uploadTimes.textures++;
      }
      fenceNow();
      uploadTimes.textureMs += performance.now() - t0;
      await new Promise((res) => setTimeout(res, 0));
    }
    const f0 = performance.now();
    while (!gpuDone()) await new Promise((res) => setTimeout(res, POLL_MS));
    uploadTimes.lastEnd = performance.now();
    uploadTimes.fenceMs += uploadTimes.lastEnd - f0;
    then();
  }

  return {
    /** True when the scene can be drawn now; else textures are sent (or the GPU is still busy with them) and
     * `then` is called once it can be. */
    ready(then) {
      if (busy) return false;
      const list = pendingTextures();
      if (list.length === 0 && !newMaterials && gpuDone()) return true;
      busy = true;
      upload(list, () => {
        busy = false;
        then();
      });
      return false;
    },
  };
}
