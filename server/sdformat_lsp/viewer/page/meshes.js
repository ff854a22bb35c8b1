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
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

export const MESH_EXTENSIONS = ['stl', 'obj', 'dae', 'gltf', 'glb'];
const templates = new Map(); // url#version -> Promise<Object3D>

export function extensionOf(v) {
  return ((v.meshUri || v.mesh || '').split(/[?#]/)[0].split('.').pop() || '').toLowerCase();
}

/** Where the page's time goes while meshes load: milliseconds spent parsing on the page's thread, files read. */
export const loadTimes = { parseMs: 0, files: 0 };

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

async function fetchOk(url, kind) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return kind === 'text' ? r.text() : r.arrayBuffer();
}

/** gz-common's opacity of each COLLADA material (by name and id), from the file's effects. */
export function colladaOpacities(text) {
  // only the effects and materials are read (a small part of a large file): not a second parse of the geometry
  const part = (tag) => {
    const a = text.indexOf(`<${tag}`);
    const b = text.indexOf(`</${tag}>`, a);
    return a >= 0 && b > a ? text.slice(a, b + tag.length + 3) : '';
  };
  const doc = new DOMParser().parseFromString(`<c>${part('library_effects')}${part('library_materials')}</c>`, 'application/xml');
  const effects = new Map();
  for (const effect of doc.getElementsByTagName('effect')) {
    let opacity = 1;
    const technique = [...effect.getElementsByTagName('technique')].find((t) => t.parentElement && t.parentElement.localName === 'profile_COMMON');
    const shading = technique && [...technique.children].find((c) => ['phong', 'lambert', 'blinn', 'constant'].includes(c.localName));
    const transparent = shading && [...shading.children].find((c) => c.localName === 'transparent');
    if (transparent && transparent.getAttribute('opaque') && !transparent.getElementsByTagName('texture').length) {
      const colorEl = transparent.getElementsByTagName('color')[0];
      const c = colorEl ? colorEl.textContent.trim().split(/\s+/).map(Number) : [1, 1, 1, 1];
      const tEl = [...shading.children].find((x) => x.localName === 'transparency');
      const tf = tEl && tEl.getElementsByTagName('float')[0];
      const t = tf ? Number(tf.textContent) : 1;
      const lum = 0.212671 * c[0] + 0.71516 * c[1] + 0.072169 * c[2];
      const a = c.length > 3 ? c[3] : 1;
      switch (transparent.getAttribute('opaque')) {
        case 'RGB_ZERO': opacity = 1 - lum * t; break;
        case 'RGB_ONE': opacity = lum * t; break;
        case 'A_ONE': opacity = a * t; break;
        case 'A_ZERO': opacity = 1 - a * t; break;
        default: opacity = 1;
      }
    }
    effects.set(effect.getAttribute('id'), Math.min(1, Math.max(0, opacity)));
  }
  const out = new Map();
  for (const m of doc.getElementsByTagName('material')) {
    const inst = m.getElementsByTagName('instance_effect')[0];
    const url = inst ? (inst.getAttribute('url') || '').replace(/^#/, '') : '';
    if (!effects.has(url)) continue;
    if (m.getAttribute('name')) out.set(m.getAttribute('name'), effects.get(url));
    if (m.getAttribute('id')) out.set(m.getAttribute('id'), effects.get(url));
  }
  return out;
}

async function load(url, ext) {
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
    const text = await fetchOk(url, 'text');
    const base = url.slice(0, url.lastIndexOf('/') + 1);
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

async function timedLoad(url, ext) {
  const out = await load(url, ext);
  loadTimes.files++;
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

/** The shared template of a mesh file (loaded at most once per URL and version). */
export function meshTemplate(url, version, ext) {
  const key = `${url}#${version ?? ''}`;
  let p = templates.get(key);
  if (!p) {
    p = timedLoad(url, ext);
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
