// The mesh worker: COLLADA files parsed off the page's thread. Parsing a large .dae (the XML, then the
// triangles) takes from tens of milliseconds to over a second; in VS Code's webview the page runs on the
// workbench's thread, so the editor froze that long for each file. Here the page (meshes.js) sends the file's
// bytes, the worker parses them with three.js's own COLLADA parser and composer (the same result as on the
// page: the xmldom.js reader stands in for DOMParser, which workers lack), applies what meshes.js applied
// (no <up_axis> turn, gz-common's opacities) and answers with plain data: the node tree and its matrices,
// each geometry's typed arrays (transferred, not copied) and each material's parameters, textures by the
// image they name (the page loads the images: they need the page's loaders and its texture bookkeeping).
//
// Built into the extension's dist/meshworker.js (three.js bundled) and, for `sdformat-lsp view`, served as a
// module worker whose imports the view server points at the vendored three.js (workers have no import map).
import { Texture } from 'three';
import { ColladaParser } from 'three/addons/loaders/collada/ColladaParser.js';
import { ColladaComposer } from 'three/addons/loaders/collada/ColladaComposer.js';
import { XmlDomParser } from './xmldom.js';
import { colladaOpacities } from './collada_opacity.js';

if (typeof self.DOMParser === 'undefined') self.DOMParser = XmlDomParser;

/** Stands in for three.js's TextureLoader and TGALoader: the texture records the image it names. */
function namingLoader(tga) {
  return {
    load(image) {
      const t = new Texture();
      t.userData.image = image;
      t.userData.tga = tga;
      return t;
    },
  };
}

const MAPS = ['map', 'specularMap', 'normalMap', 'lightMap', 'emissiveMap'];
const MATERIALS = ['MeshPhongMaterial', 'MeshLambertMaterial', 'MeshBasicMaterial', 'LineBasicMaterial'];

export function parseCollada(text) {
  const parsed = new ColladaParser().parse(text);
  if (parsed === null) throw new Error('the file is not XML that COLLADA readers accept');
  const { library, asset, collada } = parsed;
  const { scene } = new ColladaComposer(library, collada, namingLoader(false), namingLoader(true)).compose();
  scene.scale.multiplyScalar(asset.unit); // its unit, as ColladaLoader; no <up_axis> turn (gz-common applies none)
  const opacities = colladaOpacities(text); // with DOMParser: the browser's on a page, xmldom.js's in a worker
  return serialize(scene, opacities);
}

function serialize(scene, opacities) {
  const nodes = [];
  const geometries = new Map();
  const materials = new Map();
  const transfer = new Set();
  const geometryIndex = (g) => {
    if (!geometries.has(g)) {
      const attributes = [];
      for (const [name, a] of Object.entries(g.attributes)) {
        if (name === 'skinIndex' || name === 'skinWeight') continue; // drawn at rest: no skeleton on the page
        attributes.push({ name, array: a.array, itemSize: a.itemSize, normalized: a.normalized });
        transfer.add(a.array.buffer);
      }
      const index = g.index ? { array: g.index.array, itemSize: 1 } : null;
      if (index) transfer.add(index.array.buffer);
      geometries.set(g, { at: geometries.size, data: { attributes, index, groups: g.groups.map((x) => ({ ...x })) } });
    }
    return geometries.get(g).at;
  };
  const materialIndex = (m) => {
    if (!materials.has(m)) {
      const op = opacities.has(m.name) ? opacities.get(m.name) : 1;
      const out = {
        type: MATERIALS.includes(m.type) ? m.type : 'MeshPhongMaterial',
        name: m.name,
        color: m.color ? m.color.toArray() : null,
        specular: m.specular ? m.specular.toArray() : null,
        emissive: m.emissive ? m.emissive.toArray() : null,
        shininess: m.shininess,
        side: m.side,
        vertexColors: m.vertexColors,
        // gz-common's opacity: a material without <transparent> is opaque, whatever its <transparency>
        opacity: op,
        transparent: op < 1,
        depthWrite: op >= 1,
        normalScale: m.normalScale ? m.normalScale.toArray() : null,
        maps: {},
      };
      for (const key of MAPS) {
        const t = m[key];
        if (!t || !t.userData || t.userData.image === undefined) continue;
        out.maps[key] = {
          image: t.userData.image,
          tga: t.userData.tga,
          wrapS: t.wrapS,
          wrapT: t.wrapT,
          offset: t.offset.toArray(),
          repeat: t.repeat.toArray(),
          colorSpace: t.colorSpace,
        };
      }
      materials.set(m, { at: materials.size, data: out });
    }
    return materials.get(m).at;
  };
  const visit = (o) => {
    o.updateMatrix();
    const node = { kind: 'group', name: o.name, matrix: o.matrix.toArray(), children: [] };
    if (o.isMesh || o.isLine || o.isPoints) {
      node.kind = o.isMesh ? 'mesh' : o.isLineSegments ? 'lineSegments' : o.isLine ? 'line' : 'points';
      node.geometry = geometryIndex(o.geometry);
      node.material = Array.isArray(o.material) ? o.material.map(materialIndex) : materialIndex(o.material);
    }
    const at = nodes.length;
    nodes.push(node);
    for (const c of o.children) node.children.push(visit(c));
    return at;
  };
  visit(scene);
  return {
    message: { nodes, geometries: [...geometries.values()].map((x) => x.data), materials: [...materials.values()].map((x) => x.data) },
    transfer: [...transfer],
  };
}

// a worker's entry point; imported on a page (tests compare its parse with the browser's DOMParser) it waits for nothing
if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) self.onmessage = async (event) => {
  const { id, bytes, gzip } = event.data;
  try {
    // gzipped by the VS Code extension (text crosses the workbench's thread compressed): inflated here, natively
    const raw = gzip ? await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer() : bytes;
    const text = new TextDecoder().decode(raw);
    const { message, transfer } = parseCollada(text);
    self.postMessage({ id, scene: message }, transfer);
  } catch (e) {
    self.postMessage({ id, error: e && e.message ? e.message : String(e) });
  }
};
