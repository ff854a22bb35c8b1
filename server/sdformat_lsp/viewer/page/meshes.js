// Mesh files drawn in the orientation and units Gazebo draws them (gz-common's MeshManager):
// - STL and OBJ: the coordinates as written, in metres; an OBJ's materials from the .mtl files its `mtllib`
//   lines name, beside it (as gz-common's OBJLoader reads them; a missing .mtl leaves the default grey);
// - COLLADA: the <unit meter> scale of the file; the <up_axis> is not applied (gz-common's
//   ColladaLoader reads the unit only). three.js's ColladaLoader turns Z_UP files by -90 deg about X:
//   that rotation is undone here, and its unit scale is kept (the visual's <scale> goes on a parent).
//   Transparency as gz-common reads it: a material without <transparent> is opaque whatever its
//   <transparency> says (Blender writes <transparency>0</transparency> for opaque materials, which
//   three.js would draw invisible); with <transparent opaque="..."> the COLLADA formulas;
// - glTF/GLB: the scene with its node transforms (gz-common keeps the root transform of glTF). Materials of
//   the KHR_materials_pbrSpecularGlossiness extension (Blender's older exporters; three.js no longer reads it)
//   are drawn with their diffuse colour and texture, as gz-common's loader takes them.
// Each file is loaded once per URL and version and shared by every visual using it (the clones
// share geometry and materials: one upload to the GPU).
import * as THREE from 'three';
import { STLLoader } from 'three/addons/loaders/STLLoader.js';
import { OBJLoader } from 'three/addons/loaders/OBJLoader.js';
import { MTLLoader } from 'three/addons/loaders/MTLLoader.js';
import { ColladaLoader } from 'three/addons/loaders/ColladaLoader.js';
import { TGALoader } from 'three/addons/loaders/TGALoader.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { colladaOpacities } from './collada_opacity.js';

export const MESH_EXTENSIONS = ['stl', 'obj', 'dae', 'gltf', 'glb'];
const templates = new Map(); // url#version -> Promise<Object3D>

export function extensionOf(v) {
  return ((v.meshUri || v.mesh || '').split(/[?#]/)[0].split('.').pop() || '').toLowerCase();
}

/** Where the page's time goes while meshes load: milliseconds spent parsing on the page's thread, files read,
 * files parsed in a mesh worker, files (meshes and textures) read through the shell's reader (setFileReader), of
 * them those it sent gzipped, and the gzipped ones inflated in the mesh worker (not on the page's thread). */
export const loadTimes = { parseMs: 0, files: 0, workerFiles: 0, readFiles: 0, gzipFiles: 0, workerInflated: 0 };

/** When (performance.now(), ms) the last mesh was loaded (read and parsed) and the last image arrived, and the last image was decoded: the
 * phases of a large world's first draw, with uploads.js's (measured by scripts/view_vscode.py). */
export const phases = { meshLoaded: 0, imageRead: 0, imageDecoded: 0, imageBytes: 0, imagePixels: 0, imageReads: 0, imageFiles: new Set() };

/** The images COLLADA and MTL materials name load after their mesh is parsed (three.js's loaders give the texture
 * at once and fill it later): they are counted here, and `listener` is called as each one arrives or fails, so
 * that the view draws them (nothing else would draw the scene again) and says it is drawn only once they are in. */
export const textureLoads = { pending: 0, listener: null };
const textureManager = new THREE.LoadingManager();
const itemStart = textureManager.itemStart;
const itemEnd = textureManager.itemEnd;
textureManager.itemStart = (url) => {
  itemStart(url);
  textureLoads.pending++;
};
textureManager.itemEnd = (url) => {
  itemEnd(url);
  textureLoads.pending--;
  if (textureLoads.listener) textureLoads.listener();
};

/** How the page reads a file its frames name (a mesh, a texture the server found), set by its shell: in VS Code
 * from the extension's file server, or posted by the extension (vscode.js), either much faster than the webview's
 * own reading of its resources. Without it, or when it fails, the file is fetched. */
let reader = null;

export function setFileReader(read) {
  reader = read;
}

/** A file's bytes as read: `{ data, gzip }`, gzip when the reader sent them compressed (`{ gzip: ArrayBuffer }`:
 * the VS Code extension gzips text meshes, as every byte it posts crosses the workbench's thread). */
async function rawBytesOf(url) {
  if (reader) {
    try {
      const data = await reader(url);
      loadTimes.readFiles++;
      if (data && data.gzip instanceof ArrayBuffer) {
        loadTimes.gzipFiles++;
        return { data: data.gzip, gzip: true };
      }
      return { data, gzip: false };
    } catch {
      // fetched below
    }
  }
  const r = await fetch(url);
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return { data: await r.arrayBuffer(), gzip: false };
}

/** Gzipped bytes inflated by the browser's own DecompressionStream (on a page, or in the mesh worker). */
export function gunzip(data) {
  return new Response(new Blob([data]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
}

async function bytesOf(url) {
  const { data, gzip } = await rawBytesOf(url);
  return gzip ? gunzip(data) : data;
}

async function fetchOk(url, kind) {
  const data = await bytesOf(url);
  return kind === 'text' ? new TextDecoder().decode(data) : data;
}

async function load(url, ext, textures) {
  if (ext === 'stl') {
    const data = await fetchOk(url, 'buffer');
    const geometry = timed(() => new STLLoader().parse(data));
    return new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: 0xb3b3b3, roughness: 0.6, vertexColors: Boolean(geometry.hasColors) }));
  }
  if (ext === 'obj') {
    const text = await fetchOk(url, 'text');
    const base = url.slice(0, url.lastIndexOf('/') + 1);
    const loader = new OBJLoader();
    const libs = [...text.matchAll(/^\s*mtllib\s+(.+?)\s*$/gm)].map((m) => m[1]);
    for (const lib of libs) {
      let mtl;
      try {
        mtl = await fetchOk(base + lib.split('/').map(encodeURIComponent).join('/'), 'text');
      } catch {
        continue; // drawn in the default material, as gz-common does without the .mtl
      }
      const materials = new MTLLoader(textureManager).setResourcePath(base).parse(mtl, base);
      materials.preload();
      loader.setMaterials(materials);
    }
    return timed(() => loader.parse(text));
  }
  if (ext === 'dae') {
    const base = url.slice(0, url.lastIndexOf('/') + 1);
    // gzipped bytes go to the worker as they came: inflated there, the page's thread never holds the text
    const { data, gzip } = await rawBytesOf(url);
    const pool = workers(); // asked after the read: a worker that failed meanwhile is known broken by now
    if (pool) {
      try {
        const holder = new THREE.Group();
        holder.add(built(await pool.parse(data, gzip), base, textures));
        loadTimes.workerFiles++;
        if (gzip) loadTimes.workerInflated++;
        return holder;
      } catch (e) {
        if (!e.retry) throw e;
      }
    }
    // no worker, or it died with the file (it was handed over): read again, inflated and parsed on the page
    const text = await fetchOk(url, 'text');
    const [opacities, collada] = timed(() => [colladaOpacities(text), new ColladaLoader(textureManager).parse(text, base)]);
    const scene = collada.scene;
    scene.rotation.set(0, 0, 0); // gz-common does not apply <up_axis>; three.js turned Z_UP files
    scene.updateMatrix();
    scene.traverse((o) => {
      if (!o.isMesh) return;
      const mats = Array.isArray(o.material) ? o.material : [o.material];
      for (const m of mats) {
        const op = opacities.has(m.name) ? opacities.get(m.name) : 1;
        m.opacity = op;
        m.transparent = op < 1;
        m.depthWrite = op >= 1;
      }
    });
    const holder = new THREE.Group();
    holder.add(scene);
    return holder;
  }
  if (ext === 'gltf' || ext === 'glb') {
    const base = url.slice(0, url.lastIndexOf('/') + 1);
    const data = await fetchOk(url, 'buffer');
    const gltf = await new GLTFLoader().register((parser) => new SpecularGlossiness(parser)).parseAsync(data, base);
    return gltf.scene;
  }
  throw new Error(`.${ext} meshes are not drawn (Gazebo draws STL, OBJ, DAE, glTF and GLB)`);
}

/** GLTFLoader plugin: a KHR_materials_pbrSpecularGlossiness material as a standard material with the diffuse
 * factor as its colour and opacity, the diffuse texture as its map, no metalness and a roughness of 1 - glossiness. */
class SpecularGlossiness {
  constructor(parser) {
    this.parser = parser;
    this.name = 'KHR_materials_pbrSpecularGlossiness';
  }

  extendMaterialParams(materialIndex, params) {
    const def = this.parser.json.materials[materialIndex];
    const ext = def && def.extensions ? def.extensions[this.name] : undefined;
    if (!ext) return Promise.resolve();
    const f = Array.isArray(ext.diffuseFactor) ? ext.diffuseFactor : [1, 1, 1, 1];
    params.color = new THREE.Color().setRGB(f[0], f[1], f[2], THREE.LinearSRGBColorSpace);
    params.opacity = f[3];
    params.metalness = 0;
    params.roughness = 1 - (typeof ext.glossinessFactor === 'number' ? ext.glossinessFactor : 1);
    return ext.diffuseTexture !== undefined ? this.parser.assignTexture(params, 'map', ext.diffuseTexture, THREE.SRGBColorSpace) : Promise.resolve();
  }
}

/** The mesh workers (meshworker.js), made by the page's shell (`setMeshWorkers`): COLLADA files are parsed there,
 * off the page's thread. Without them (no factory, or a worker that cannot start: a Content-Security-Policy
 * without worker-src, a browser without module workers) the page parses the files itself, as before. */
let makeWorker = null;
let poolSize = 1;
let pool;

/** `factory()` answers a new Worker running meshworker.js, or a promise of one; `count` workers share the files. */
export function setMeshWorkers(factory, count = 1) {
  makeWorker = factory;
  poolSize = Math.max(1, count);
  pool = undefined;
}

/** Starts the mesh workers now, so that their script is read before the mesh files are asked for: in VS Code's
 * webview every file comes through one channel, and the worker's script, asked for after the 62 mesh files of
 * small_house, arrived with the last of them (1.5 s after the first), so that none was parsed before all were read. */
export function startMeshWorkers() {
  workers();
}

/** Workers worth starting: the cores the page's thread leaves (one on a two-core machine), at most 3. */
export function workerCount() {
  const cores = (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) || 2;
  return Math.min(3, Math.max(1, cores - 1));
}

function workers() {
  if (pool !== undefined) return pool && !pool.broken ? pool : null;
  pool = null;
  if (!makeWorker) return pool;
  const waiting = new Map(); // id -> {resolve, reject, slot}
  let next = 0;
  const giveUp = (slot, why) => {
    // the worker did not start or died: its files, and every later one, are parsed on the page
    if (!current.broken) console.warn(`sdformat-lsp view: meshes are parsed on the page's thread (the mesh worker failed: ${why})`);
    current.broken = true;
    for (const [id, w] of waiting) if (w.slot === slot) {
      waiting.delete(id);
      w.reject({ retry: true });
    }
  };
  const slots = [];
  for (let i = 0; i < poolSize; i++) {
    const slot = { load: 0 };
    slot.ready = Promise.resolve()
      .then(makeWorker)
      .then((worker) => {
        worker.onmessage = (event) => {
          const { id, scene, error } = event.data;
          const w = waiting.get(id);
          if (!w) return;
          waiting.delete(id);
          slot.load--;
          if (error !== undefined) w.reject(new Error(error));
          else w.resolve(scene);
        };
        worker.onerror = (event) => {
          event.preventDefault();
          giveUp(slot, event.message || 'it stopped');
        };
        return worker;
      });
    slot.ready.catch((e) => giveUp(slot, e && e.message));
    slots.push(slot);
  }
  const current = {
    broken: false,
    parse(bytes, gzip = false) {
      const slot = slots.reduce((a, b) => (b.load < a.load ? b : a));
      slot.load++;
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject, slot });
        slot.ready.then((worker) => worker.postMessage({ id, bytes, gzip }, [bytes]), () => {});
      });
    },
  };
  pool = current;
  return pool;
}

// Images decoded off the page's thread, turned as WebGL would turn an <img> (an ImageBitmap ignores
// UNPACK_FLIP_Y) and neither premultiplied nor colour-converted (three.js asks neither for images): a frame
// uploading a 4k image as an <img> held the page's thread for 0.4 s.
const BITMAPS = typeof createImageBitmap === 'function';
const BITMAP_OPTIONS = { imageOrientation: 'flipY', premultiplyAlpha: 'none', colorSpaceConversion: 'none' };

/** The longest side, in pixels, an image is decoded to (null: as large as it is), set by the view: on software WebGL
 * (SwiftShader: VS Code's webview without a GPU) every texel is copied and mipmapped by the CPU, and small_house's
 * 83 images (96 million pixels, a 4096x4096 wall among them) held the drawing 3-4 s after the last of them arrived.
 * A view is not a renderer: at a few hundred pixels on the screen an image of 1024 looks the same. */
let textureLimit = null;

export function setTextureLimit(pixels) {
  textureLimit = pixels > 0 ? pixels : null;
}

/** An image's [width, height] as its PNG, JPEG, GIF or WebP header says, or null (another format, a broken file). */
export function imageSize(data) {
  const b = new Uint8Array(data);
  const u16 = (i) => (b[i] << 8) | b[i + 1];
  const u32 = (i) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
  if (b.length >= 24 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return [u32(16), u32(20)];
  if (b.length >= 10 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return [b[6] | (b[7] << 8), b[8] | (b[9] << 8)];
  if (b.length >= 30 && u32(0) === 0x52494646 && u32(8) === 0x57454250) {
    const kind = String.fromCharCode(b[12], b[13], b[14], b[15]);
    if (kind === 'VP8X') return [1 + (b[24] | (b[25] << 8) | (b[26] << 16)), 1 + (b[27] | (b[28] << 8) | (b[29] << 16))];
    if (kind === 'VP8 ') return [(b[26] | (b[27] << 8)) & 0x3fff, (b[28] | (b[29] << 8)) & 0x3fff];
    if (kind === 'VP8L') return [1 + (b[21] | ((b[22] & 0x3f) << 8)), 1 + ((b[22] >> 6) | (b[23] << 2) | ((b[24] & 0x0f) << 10))];
    return null;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    // JPEG: the frame header (SOF0-15 but DHT, JPG and DAC) of the markers' chain
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1];
      if (marker === 0xff) {
        i++;
        continue;
      }
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return [u16(i + 7), u16(i + 5)];
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) i += 2;
      else i += 2 + u16(i + 2);
    }
  }
  return null;
}

/** The options to decode an image of `data` with: at most `textureLimit` on its longest side (one side given, the
 * browser keeps the proportions), decoded and scaled off the page's thread by createImageBitmap. */
export function bitmapOptions(data) {
  const size = textureLimit ? imageSize(data) : null;
  if (!size || Math.max(size[0], size[1]) <= textureLimit) return BITMAP_OPTIONS;
  const side = size[0] >= size[1] ? 'resizeWidth' : 'resizeHeight';
  return { ...BITMAP_OPTIONS, [side]: textureLimit, resizeQuality: 'high' };
}

/** Whether the page makes the mip levels of the images it decodes (set by the view on software WebGL): there WebGL's
 * generateMipmap of an sRGB texture (three.js's format for colour maps) is several times slower than uploading the
 * levels made by createImageBitmap: 16 images of 1024x1024 in SwiftShader, 650-690 ms against 120-160 ms. */
let ownMipmaps = false;

export function setOwnMipmaps(on) {
  ownMipmaps = Boolean(on);
}

/** The mip levels of a decoded image, each half the one before (rounded down, at least 1) down to 1x1, the image
 * itself first, scaled by the browser (box-filtered) from the level before. */
export async function mipChain(bitmap) {
  const chain = [bitmap];
  let [w, h] = [bitmap.width, bitmap.height];
  while (w > 1 || h > 1) {
    w = Math.max(1, w >> 1);
    h = Math.max(1, h >> 1);
    chain.push(await createImageBitmap(chain[chain.length - 1], { resizeWidth: w, resizeHeight: h, resizeQuality: 'medium', premultiplyAlpha: 'none', colorSpaceConversion: 'none' }));
  }
  return chain;
}

/** A texture of an image (a file the frames name, or a reference relative to its mesh), read as the meshes are
 * (through the shell's reader when there is one) and decoded off the page's thread. */
function readTexture(url) {
  const texture = new THREE.Texture();
  texture.flipY = false; // turned when decoded
  textureManager.itemStart(url);
  bytesOf(url)
    .then((data) => {
      phases.imageRead = performance.now();
      phases.imageBytes += data.byteLength;
      phases.imageReads++;
      phases.imageFiles.add(url);
      return createImageBitmap(new Blob([data]), bitmapOptions(data));
    })
    .then((bitmap) => (ownMipmaps ? mipChain(bitmap) : [bitmap]))
    .then(
      ([bitmap, ...levels]) => {
        phases.imageDecoded = performance.now();
        phases.imagePixels += bitmap.width * bitmap.height;
        texture.image = bitmap;
        if (levels.length) {
          texture.mipmaps = [bitmap, ...levels];
          texture.generateMipmaps = false;
        }
        texture.needsUpdate = true;
      },
      () => textureManager.itemError(url),
    )
    .then(() => textureManager.itemEnd(url));
  return texture;
}

/** The three.js objects of a scene the worker sent (meshworker.js's serialize), textures loaded here: an image
 * from the file the server found for it (`textures`: <init_from> as written -> URL, found where gz-common finds
 * it: ../materials/textures is not where a browser looks), else from the reference as three.js's ColladaLoader
 * takes it, relative to the file's folder. */
function built(data, base, textures) {
  const geometries = data.geometries.map((g) => {
    const geometry = new THREE.BufferGeometry();
    for (const a of g.attributes) geometry.setAttribute(a.name, new THREE.BufferAttribute(a.array, a.itemSize, a.normalized));
    if (g.index) geometry.setIndex(new THREE.BufferAttribute(g.index.array, 1));
    for (const x of g.groups) geometry.addGroup(x.start, x.count, x.materialIndex);
    return geometry;
  });
  const loaders = new Map(); // kind and path -> loader
  const loader = (kind, path) => {
    const key = `${kind}:${path}`;
    if (!loaders.has(key)) {
      const made = kind === 'tga' ? new TGALoader(textureManager) : new THREE.TextureLoader(textureManager);
      loaders.set(key, made.setPath(path));
    }
    return loaders.get(key);
  };
  const texture = (t) => {
    const found = textures && typeof t.image === 'string' ? textures[t.image.trim()] : undefined;
    const [path, image] = found ? ['', found] : [base, t.image];
    let out;
    if (t.tga) out = loader('tga', path).load(image);
    // as three.js's loaders resolve it: a URL with a scheme (data:, http:) as it is, else after the folder's
    else if (BITMAPS) out = readTexture(/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(image) ? image : path + image);
    else out = loader('image', path).load(image);
    out.wrapS = t.wrapS;
    out.wrapT = t.wrapT;
    out.offset.fromArray(t.offset);
    out.repeat.fromArray(t.repeat);
    out.colorSpace = t.colorSpace;
    return out;
  };
  const materials = data.materials.map((m) => {
    const material = new THREE[m.type]();
    material.name = m.name;
    if (m.color) material.color.fromArray(m.color);
    if (m.specular && material.specular) material.specular.fromArray(m.specular);
    if (m.emissive && material.emissive) material.emissive.fromArray(m.emissive);
    if (m.shininess !== undefined && material.shininess !== undefined) material.shininess = m.shininess;
    material.side = m.side;
    material.vertexColors = m.vertexColors;
    material.opacity = m.opacity;
    material.transparent = m.transparent;
    material.depthWrite = m.depthWrite;
    if (m.normalScale && material.normalScale) material.normalScale.fromArray(m.normalScale);
    for (const [key, t] of Object.entries(m.maps)) material[key] = texture(t);
    return material;
  });
  const objects = data.nodes.map((n) => {
    let o;
    if (n.kind === 'group') o = new THREE.Group();
    else {
      const material = Array.isArray(n.material) ? n.material.map((i) => materials[i]) : materials[n.material];
      const geometry = geometries[n.geometry];
      const kind = { mesh: THREE.Mesh, lineSegments: THREE.LineSegments, line: THREE.Line, points: THREE.Points }[n.kind];
      o = new kind(geometry, material);
    }
    o.name = n.name;
    o.matrix.fromArray(n.matrix);
    o.matrix.decompose(o.position, o.quaternion, o.scale);
    return o;
  });
  data.nodes.forEach((n, i) => {
    for (const c of n.children) objects[i].add(objects[c]);
  });
  return objects[0];
}

async function timedLoad(url, ext, textures) {
  const out = await load(url, ext, textures);
  loadTimes.files++;
  phases.meshLoaded = performance.now();
  return out;
}

function timed(f) {
  const t0 = performance.now();
  try {
    return f();
  } finally {
    loadTimes.parseMs += performance.now() - t0;
  }
}

/** The shared template of a mesh file (loaded at most once per URL and version); `textures`: the images the
 * server found for a COLLADA file (<init_from> as written -> URL). */
export function meshTemplate(url, version, ext, textures) {
  const key = `${url}#${version ?? ''}`;
  let p = templates.get(key);
  if (!p) {
    p = timedLoad(url, ext, textures || null);
    templates.set(key, p);
    p.catch(() => templates.delete(key)); // a failed load is tried again on the next change
  }
  return p;
}

/** Forget templates whose URL is not in `keep` (files no longer used, or loaded at an older version). */
export function pruneTemplates(keep) {
  for (const key of templates.keys()) if (!keep.has(key)) templates.delete(key);
}

export function templateKey(url, version) {
  return `${url}#${version ?? ''}`;
}
