// The 3D view of a document's frames: one page for the VS Code webview (vscode.js) and the browser
// (browser.js, served by `sdformat-lsp view`). Both hand it a host: `post(message)` to the editor or
// server, `onMessage(handler)` for `{type: 'frames', ...}` (an `sdformat/frames` answer at rest,
// docs/server.md) and `{type: 'highlight', id}`, and `saved()`/`save(state)` for what survives a
// reload (the joint values).
//
// SDFormat is Z-up. Frames are triads (x red, y green, z blue), links labelled; joints show their
// axes (yellow) and the range of revolute limits (an arc); visuals and, on a toggle, collisions are
// drawn (meshes by meshes.js, materials by materials.js). A slider per movable joint moves the robot
// by forward kinematics in the page (kinematics.js, the server's rules). It draws only when something
// changed (no animation loop): orbiting, a slider, a message, a mesh arriving. Visuals repeating a mesh file are
// instanced (instances.js), and so are the triads (triads.js).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { axisCount, poseFrames } from './kinematics.js';
import { pbrMaterial, standardMaterial, visualLook } from './materials.js';
import { createUploads, uploadTimes } from './uploads.js';
import { MESH_EXTENSIONS, extensionOf, loadTimes, meshTemplate, phases, pruneTemplates, setOwnMipmaps, setTextureLimit, templateKey, textureLoads } from './meshes.js';
import { createInstances, instanceParts } from './instances.js';
import { createTriads } from './triads.js';

const STYLE = `
#sdf-view{position:fixed;inset:0;overflow:hidden;font:12px var(--vscode-font-family,system-ui,sans-serif)}
#sdf-view canvas{display:block}
#sdf-bar{position:absolute;left:6px;top:6px;display:flex;gap:4px;flex-wrap:wrap;z-index:2}
#sdf-bar button,#sdf-bar label{background:rgba(40,40,40,.8);color:#eee;border:1px solid #555;border-radius:3px;padding:2px 6px;font:inherit;cursor:pointer}
#sdf-joints{position:absolute;right:6px;top:6px;max-height:calc(100% - 40px);overflow:auto;background:rgba(30,30,30,.85);color:#eee;border-radius:4px;padding:4px 8px;z-index:2;min-width:220px}
#sdf-joints:empty{display:none}
#sdf-joints .j{display:grid;grid-template-columns:1fr auto auto;gap:2px 6px;align-items:center;margin:3px 0}
#sdf-joints .j input[type=range]{grid-column:1/4;width:100%}
#sdf-joints .name{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#sdf-joints button{background:none;color:#ccc;border:1px solid #666;border-radius:3px;cursor:pointer;font:inherit;padding:0 4px}
#sdf-status{position:absolute;left:8px;bottom:6px;opacity:.8;pointer-events:none;color:var(--vscode-editor-foreground,#ddd);white-space:pre-line;max-width:70%}
`;

const KIND_SIZE = { world: 1, model: 1, link: 1, joint: 0.7, frame: 0.6 };
const PROGRESS_MS = 400;
// While files are still arriving, drawing the meshes read so far may take at most this share of the page's time:
// a software-WebGL frame (SwiftShader in VS Code, 100-600 ms with its read-back) drawn every PROGRESS_MS took the
// thread that, in VS Code's webview, also hands the webview its files (small_house: 19 such frames, 1.9 s).
const PROGRESS_SHARE = 0.15;
const TEXTURE_SLOTS = ['map', 'normalMap', 'roughnessMap', 'metalnessMap', 'emissiveMap', 'aoMap', 'bumpMap', 'specularMap', 'alphaMap', 'lightMap', 'displacementMap'];
const MAX_LINK_LABELS = 40; // a world's hundreds of links would bury the scene in labels: then models only

// the share of the resolution drawn while the camera moves on software WebGL (see motion()): at most a half, at
// least a quarter, lowered while moving frames cost more than SLOW_FRAME_MS and raised again below FAST_FRAME_MS
const MOTION_RESOLUTION = 0.5;
const MIN_MOTION_RESOLUTION = 0.25;
const SLOW_FRAME_MS = 40; // 25 frames/s
const FAST_FRAME_MS = 28;
// the longest side of an image drawn on software WebGL, in pixels (meshes.js setTextureLimit: larger ones are
// scaled down when decoded); docs/view.md says so
const SOFTWARE_TEXTURE_LIMIT = 1024;

/** Whether WebGL is drawn by the CPU (SwiftShader, llvmpipe: VS Code or a browser without a usable GPU). There
 * every frame is read back on the page's thread, which in code-server is the workbench's, and multisampling
 * doubles a frame's cost (small_house at 1200x800: 300 ms a frame with it, 130 ms without): edges are left jagged. */
function softwareWebGL() {
  try {
    const gl = document.createElement('canvas').getContext('webgl2') || document.createElement('canvas').getContext('webgl');
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    const lose = gl.getExtension('WEBGL_lose_context');
    if (lose) lose.loseContext();
    return /swiftshader|llvmpipe|softpipe|software/i.test(name);
  } catch {
    return false;
  }
}

export function start(host) {
  const style = document.createElement('style');
  style.textContent = STYLE;
  document.head.appendChild(style);
  const root = document.createElement('div');
  root.id = 'sdf-view';
  root.innerHTML = `<div id="sdf-bar">
    <button data-act="fit" title="Fit the view to the scene">Fit</button>
    <button data-act="iso">Iso</button><button data-act="top">Top</button><button data-act="front">Front</button><button data-act="side">Side</button>
    <label><input type="checkbox" data-opt="visuals" checked> Visuals</label>
    <label><input type="checkbox" data-opt="collisions"> Collisions</label>
    <label><input type="checkbox" data-opt="frames" checked> Frames</label>
    <label><input type="checkbox" data-opt="labels" checked> Labels</label>
  </div><div id="sdf-joints"></div><div id="sdf-status">waiting for the frames…</div>`;
  document.body.appendChild(root);
  const status = root.querySelector('#sdf-status');
  const jointsPanel = root.querySelector('#sdf-joints');

  const software = softwareWebGL();
  setTextureLimit(software ? SOFTWARE_TEXTURE_LIMIT : null);
  setOwnMipmaps(software);
  const renderer = new THREE.WebGLRenderer({ antialias: !software, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setSize(window.innerWidth, window.innerHeight);
  root.insertBefore(renderer.domElement, root.firstChild);
  const scene = new THREE.Scene();
  const bg = getComputedStyle(document.body).getPropertyValue('--vscode-editor-background').trim();
  scene.background = new THREE.Color(bg || '#1e1e1e');
  const camera = new THREE.PerspectiveCamera(50, window.innerWidth / window.innerHeight, 0.001, 10000);
  camera.up.set(0, 0, 1);
  camera.position.set(3, -3, 2);
  const controls = new OrbitControls(camera, renderer.domElement);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.0));
  const sun = new THREE.DirectionalLight(0xffffff, 1.5);
  sun.position.set(3, -2, 5);
  scene.add(sun);
  let grid = null;

  // what is drawn
  const layers = { visuals: new THREE.Group(), collisions: new THREE.Group(), frames: new THREE.Group(), labels: new THREE.Group() };
  for (const g of Object.values(layers)) scene.add(g);
  layers.collisions.visible = false;
  const options = { visuals: true, collisions: false, frames: true, labels: true };
  const instances = createInstances();
  const triads = createTriads(layers.frames);

  const saved = host.saved() || {};
  let positions = saved.positions || {}; // joint name -> value(s), kept across edits and reloads
  let rest = null; // the last answer, at rest
  let structure = ''; // what the scene objects were built for
  const nodes = new Map(); // frame id -> {frame: Group, visuals: [Group], collisions: [Group], label}
  let pickable = [];
  let scale = 1;
  let highlighted = null;
  let stats = { frames: 0, visuals: 0, meshes: 0, failedMeshes: 0, pending: 0, placeholders: 0, problems: [] };
  let generation = 0;
  let triadSizeNow = 0;
  let firstDrawStart = 0;

  // -- drawing on demand -------------------------------------------------------------------------
  let scheduled = false;
  const afterDraw = []; // called once the next frame is drawn
  let renders = 0;
  let renderMs = 0; // time spent drawing (for the measurement of a large world's first draw)
  let drawCalls = 0; // WebGL draw calls of the last draw
  let frameMs = 0; // what the last drawn frame cost the page's thread
  function requestRender() {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      const t0 = performance.now();
      instances.sync();
      triads.sync();
      if (!uploads.ready(requestRender)) return; // drawn once the GPU has its new textures and shaders
      renders++;
      resolution();
      renderer.render(scene, camera);
      renderMs += performance.now() - t0;
      // the frame's whole cost: until the next animation frame, after the compositor took it (read back)
      const inMotion = moving;
      requestAnimationFrame(() => {
        frameMs = performance.now() - t0;
        if (inMotion) motionFrameCost(frameMs);
      });
      drawCalls = renderer.info.render.calls;
      if (window.__sdfView) Object.assign(window.__sdfView, { renders, drawCalls });
      for (const f of afterDraw.splice(0)) f();
    });
  }
  const uploads = createUploads(renderer, scene, camera, TEXTURE_SLOTS);

  // While the camera moves, software WebGL draws at half resolution or less, stretched to the same size; the still frame
  // is drawn again at full resolution when the camera stops, equal to the one drawn before the move. A software
  // frame's cost grows with its pixels (small_house's orbit() in headless chromium at 1200x800, in the same minute:
  // 7.9-8.0 frames/s at full resolution, 11.7-15.5 at half). Cheaper materials would change the look. With a GPU
  // nothing changes.
  // The resolution is set when a frame is drawn, not when the camera starts or stops: a wheel step starts, changes
  // and ends in one event, and resizing the canvas twice for it would cost two new drawing buffers and draw nothing.
  // How much lower comes from what moving frames cost on this machine (small_house in the real VS Code, code-server
  // 1.100.3, same minute: 11.9-14.0 frames/s at a half, 14.1-14.4 at 0.35, 15.4 at a quarter; an empty scene 49):
  // two slow frames in a row lower it by a fifth, ten fast ones raise it again. What was learned is kept for the
  // next drag. The triads' hubs are drawn coarser while moving too (triads.js).
  let moving = false;
  let motionShare = MOTION_RESOLUTION;
  let slowFrames = 0;
  let fastFrames = 0;
  function motion(on) {
    if (!software || on === moving) return;
    moving = on;
    requestRender();
  }
  function motionFrameCost(ms) {
    slowFrames = ms > SLOW_FRAME_MS ? slowFrames + 1 : 0;
    fastFrames = ms < FAST_FRAME_MS ? fastFrames + 1 : 0;
    if (slowFrames >= 2 && motionShare > MIN_MOTION_RESOLUTION) {
      motionShare = Math.max(MIN_MOTION_RESOLUTION, motionShare * 0.8);
      slowFrames = 0;
    } else if (fastFrames >= 10 && motionShare < MOTION_RESOLUTION) {
      motionShare = Math.min(MOTION_RESOLUTION, motionShare / 0.8);
      fastFrames = 0;
    }
  }
  // The frames showing a large world's progress while its meshes and images arrive are drawn so too: each holds the
  // page's thread, which in VS Code is the workbench's (small_house in headless chromium, alternating: 145-204 ms at
  // half resolution, 220-298 ms at full); the frame said drawn, once all is in, is at full resolution.
  function resolution() {
    const loading = software && (stats.pending > 0 || textureLoads.pending > 0);
    const ratio = (window.devicePixelRatio || 1) * (moving ? motionShare : loading ? MOTION_RESOLUTION : 1);
    if (renderer.getPixelRatio() !== ratio) renderer.setPixelRatio(ratio);
    triads.coarse(moving);
  }
  let dragging = false; // a click without a move draws nothing again
  controls.addEventListener('start', () => (dragging = true));
  controls.addEventListener('end', () => {
    dragging = false;
    motion(false);
  });
  controls.addEventListener('change', () => {
    if (dragging) motion(true);
    requestRender();
  });
  window.addEventListener('resize', () => {
    camera.aspect = window.innerWidth / window.innerHeight;
    camera.updateProjectionMatrix();
    renderer.setSize(window.innerWidth, window.innerHeight);
    requestRender();
  });

  // -- helpers -------------------------------------------------------------------------------------
  function applyPose(obj, pose) {
    if (!pose) return;
    obj.position.set(pose.xyz[0], pose.xyz[1], pose.xyz[2]);
    const q = pose.quaternion;
    obj.quaternion.set(q[0], q[1], q[2], q[3]);
    obj.updateMatrixWorld(true);
  }

  function label(text, size) {
    const canvas = document.createElement('canvas');
    const ctx = canvas.getContext('2d');
    const font = 40;
    ctx.font = `${font}px sans-serif`;
    canvas.width = Math.ceil(ctx.measureText(text).width) + 16;
    canvas.height = font + 14;
    ctx.font = `${font}px sans-serif`;
    ctx.fillStyle = 'rgba(0,0,0,0.55)';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#ffffff';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, 8, canvas.height / 2);
    const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: new THREE.CanvasTexture(canvas), depthTest: false }));
    const h = size * 0.3;
    sprite.scale.set((h * canvas.width) / canvas.height, h, 1);
    sprite.renderOrder = 10;
    return sprite;
  }

  function primitive(v, material) {
    const s = v.size;
    let geometry;
    let upright = false;
    switch (v.shape) {
      case 'box': geometry = new THREE.BoxGeometry(s[0], s[1], s[2]); break;
      case 'cylinder': geometry = new THREE.CylinderGeometry(s[0], s[0], s[1], 32); upright = true; break;
      case 'capsule': geometry = new THREE.CapsuleGeometry(s[0], s[1], 8, 24); upright = true; break;
      case 'sphere': geometry = new THREE.SphereGeometry(s[0], 32, 16); break;
      case 'ellipsoid': geometry = new THREE.SphereGeometry(1, 32, 16); geometry.scale(s[0], s[1], s[2]); break;
      case 'plane': geometry = new THREE.PlaneGeometry(s[0], s[1]); break;
      default: return null;
    }
    if (upright) geometry.rotateX(Math.PI / 2); // three's cylinders run along Y, SDFormat's along Z
    return new THREE.Mesh(geometry, v.shape === 'plane' ? standardMaterial(material.color, material.opacity, THREE.DoubleSide) : standardMaterial(material.color, material.opacity));
  }

  function placeholder(v, why) {
    // a wireframe box where a mesh could not be drawn, sized to the scene (a mesh's <scale> is often 0.001)
    const side = Math.min(Math.max(scale * 0.06, 0.03), 2);
    const g = new THREE.Mesh(new THREE.BoxGeometry(side, side, side), new THREE.MeshBasicMaterial({ color: 0xff5252, wireframe: true }));
    g.userData.placeholder = why;
    stats.placeholders++;
    stats.problems.push(`${v.meshUri || v.name}: ${why}`);
    return g;
  }

  function markPickable(obj, id) {
    obj.traverse((o) => {
      if (o.isMesh) {
        o.userData.frameId = id;
        pickable.push(o);
      }
    });
  }

  function meshInto(holder, v, id, collision, gen) {
    const ext = extensionOf(v);
    if (!v.mesh) {
      holder.add(placeholder(v, v.meshProblem || 'not found'));
      return;
    }
    if (!MESH_EXTENSIONS.includes(ext)) {
      holder.add(placeholder(v, `.${ext} meshes are not drawn`));
      return;
    }
    stats.pending++;
    meshTemplate(v.mesh, v.meshVersion, ext, v.textures).then(
      (template) => {
        if (gen !== generation) return;
        if (!drawsSomething(template)) {
          // read without an error but nothing in it to draw (an empty file, a scene of lights and cameras):
          // Gazebo draws nothing either, and the view says so where the link would be
          holder.add(placeholder(v, `has nothing to draw: no triangles in the .${ext} file`));
          stats.failedMeshes++;
          finishOne();
          return;
        }
        const look = visualLook(v);
        const parts = v.pbr && !collision ? null : instanceParts(template);
        if (parts && v.scale[0] * v.scale[1] * v.scale[2] > 0) {
          // one group per file and look: the visuals repeating a mesh are instances of one InstancedMesh per submesh
          const signature = `${templateKey(v.mesh, v.meshVersion)}|${collision ? 'collision' : look.color ? `${look.color.join(',')}/${look.opacity}` : `own/${look.opacity}`}`;
          const materialOf = (part) => {
            if (collision) return standardMaterial([1, 0.55, 0.1], 0.45);
            if (look.color) return standardMaterial(look.color, look.opacity);
            if (look.opacity >= 1) return part.material;
            return dimmed(part.material, look.opacity);
          };
          instances.add(signature, parts, materialOf, collision ? layers.collisions : layers.visuals, holder, v.scale, id);
          stats.meshes++;
          finishOne();
          return;
        }
        const inst = template.clone(true);
        let pbr = null;
        inst.traverse((o) => {
          if (!o.isMesh) return;
          if (collision) o.material = standardMaterial([1, 0.55, 0.1], 0.45);
          else if (v.pbr) o.material = pbr || (pbr = pbrMaterial(v, look, texturesArrived));
          else if (look.color) o.material = standardMaterial(look.color, look.opacity);
          else if (look.opacity < 1) o.material = dimmed(o.material, look.opacity);
        });
        const scaled = new THREE.Group();
        scaled.scale.set(...v.scale);
        scaled.add(inst);
        holder.add(scaled);
        holder.updateMatrixWorld(true);
        markPickable(scaled, id);
        stats.meshes++;
        finishOne();
      },
      (err) => {
        if (gen !== generation) return;
        holder.add(placeholder(v, `cannot be read: ${err && err.message ? err.message : err}`));
        stats.failedMeshes++;
        finishOne();
      },
    );
  }

  // progressive: meshes appear as they arrive, drawn at most every PROGRESS_MS while many are loading
  // (each draw of a large world costs tens of milliseconds in software WebGL)
  let progressTimer = null;
  function finishOne() {
    stats.pending--;
    settle();
  }
  // a mesh or a texture arrived: drawn at once when it was the last one, else within PROGRESS_MS
  function settle() {
    if (stats.pending === 0 && !fittedOnce) fit();
    if (stats.pending === 0 && textureLoads.pending === 0) {
      if (progressTimer) clearTimeout(progressTimer);
      progressTimer = null;
      dropUnreadTextures();
      // said drawn once the last frame is on the screen (its textures and shaders are sent first: uploads.js)
      afterDraw.push(report);
      requestRender();
    } else if (!progressTimer) {
      progressTimer = setTimeout(() => {
        progressTimer = null;
        requestRender();
      }, Math.max(PROGRESS_MS, frameMs / PROGRESS_SHARE));
    }
  }

  // A texture a mesh or <pbr> names that could not be read (not found, not an image) is an empty texture, which
  // WebGL samples as black: a carpet or a portrait whose image is absent was drawn as a black hole. Once every load
  // has settled, such maps are taken off their materials (drawn in their own colours) and the status line names
  // the mesh whose texture is missing. gz-common too reports such a texture as not found and goes on.
  function dropUnreadTextures() {
    const seen = new Set();
    let total = 0;
    for (const e of nodes.values()) for (const holder of e.visuals) {
      const materials = [];
      holder.traverse((c) => {
        if (c.isMesh && !c.userData.placeholder) materials.push(...[].concat(c.material));
      });
      if (holder.userData.instance) for (const m of holder.userData.instance.group.materials) materials.push(...[].concat(m));
      let dropped = 0;
      for (const m of materials) for (const slot of TEXTURE_SLOTS) {
        const t = m[slot];
        if (!t || t.image || (t.userData && t.userData.loading)) continue;
        m[slot] = null;
        m.needsUpdate = true;
        dropped++;
      }
      const what = holder.userData.drawn;
      if (dropped && what && !seen.has(what)) {
        seen.add(what);
        stats.problems.push(`${what}: a texture it names cannot be read; drawn in its material's colour`);
      }
      total += dropped;
    }
    return total;
  }

  // a <pbr> map arrived or failed (they are loaded apart from the meshes' textures)
  function texturesArrived() {
    if (stats.pending === 0 && textureLoads.pending === 0 && dropUnreadTextures()) report();
    requestRender();
  }

  function geometryObject(v, id, collision, gen) {
    const holder = new THREE.Group();
    holder.userData.drawn = v.meshUri || (v.pbr ? `<pbr> of ${v.name}` : v.name);
    if (v.shape === 'mesh') meshInto(holder, v, id, collision, gen);
    else {
      const look = visualLook(v);
      const m = primitive(v, collision ? { color: [1, 0.55, 0.1], opacity: 0.45 } : { color: look.color || [0.7, 0.7, 0.7], opacity: look.opacity });
      if (m && v.pbr && !collision) m.material = pbrMaterial(v, look, texturesArrived);
      if (m) {
        holder.add(m);
        markPickable(holder, id);
      }
    }
    return holder;
  }

  // -- the scene -----------------------------------------------------------------------------------
  function structureOf(frames) {
    return frames.map((f) => `${f.id}:${f.kind}:${f.name}:${!!f.pose}:${JSON.stringify(f.visuals || [], stripPose)}:${JSON.stringify(f.collisions || [], stripPose)}:${f.joint ? JSON.stringify([f.joint.type, f.joint.limits]) : ''}`).join('\n');
  }
  function stripPose(k, v) {
    return k === 'pose' ? undefined : v;
  }

  function sceneScale(frames) {
    const box = new THREE.Box3();
    for (const f of frames) if (f.pose) box.expandByPoint(new THREE.Vector3(...f.pose.xyz));
    for (const f of frames) for (const v of f.visuals || []) if (v.pose) box.expandByPoint(new THREE.Vector3(...v.pose.xyz));
    const extent = box.isEmpty() ? 1 : box.getSize(new THREE.Vector3()).length();
    return Math.max(0.05, extent);
  }

  function clear() {
    instances.clear();
    triads.clear();
    for (const g of Object.values(layers)) g.clear();
    nodes.clear();
    pickable = [];
    highlighted = null;
  }

  function build(frames) {
    generation++;
    const gen = generation;
    clear();
    stats = { frames: 0, visuals: 0, meshes: 0, failedMeshes: 0, pending: 0, placeholders: 0, problems: [] };
    const extent = sceneScale(frames);
    scale = extent;
    const triadSize = Math.min(Math.max(extent * 0.04, 0.02), 5);
    triadSizeNow = triadSize;
    if (grid) scene.remove(grid);
    const cell = Math.pow(10, Math.floor(Math.log10(Math.max(extent, 0.1))) - 1) * 2;
    const cells = Math.min(200, Math.max(10, Math.ceil((extent * 2) / cell)));
    grid = new THREE.GridHelper(cell * cells, cells, 0x888888, 0x444444);
    grid.userData = { side: cell * cells, cells };
    grid.rotation.x = Math.PI / 2;
    scene.add(grid);
    const keep = new Set();
    const links = frames.filter((f) => f.kind === 'link').length;
    for (const f of frames) {
      if (!f.pose) continue;
      stats.frames++;
      const entry = { frame: new THREE.Group(), size: triadSize * (KIND_SIZE[f.kind] || 0.6), visuals: [], collisions: [], label: null, axes: null };
      triads.add(entry.frame, entry.size, f.id);
      if (f.joint) entry.axes = jointDecorations(f, triadSize);
      if (entry.axes) entry.frame.add(entry.axes);
      layers.frames.add(entry.frame);
      // labels: the links of a robot; in a world, its own models only (an <include> nests the included model)
      if ((f.kind === 'model' && f.parent === 0) || (f.kind === 'link' && links <= MAX_LINK_LABELS)) {
        entry.label = label(f.name.split('::').pop(), triadSize * 1.5);
        layers.labels.add(entry.label);
      }
      for (const v of f.visuals || []) {
        const o = geometryObject(v, f.id, false, gen);
        entry.visuals.push(o);
        layers.visuals.add(o);
        stats.visuals++;
        if (v.mesh) keep.add(templateKey(v.mesh, v.meshVersion));
      }
      nodes.set(f.id, entry);
    }
    collisionsBuilt = false;
    if (options.collisions) buildCollisions(frames, gen, keep);
    else for (const f of frames) for (const v of f.collisions || []) if (v.mesh) keep.add(templateKey(v.mesh, v.meshVersion));
    pruneTemplates(keep);
  }

  // collisions are loaded when first shown: a world's collision meshes would double what it loads
  let collisionsBuilt = false;
  function buildCollisions(frames, gen, keep) {
    collisionsBuilt = true;
    for (const f of frames) {
      const entry = nodes.get(f.id);
      if (!entry) continue;
      for (const v of f.collisions || []) {
        const o = geometryObject(v, f.id, true, gen);
        entry.collisions.push(o);
        layers.collisions.add(o);
        if (keep && v.mesh) keep.add(templateKey(v.mesh, v.meshVersion));
      }
    }
  }

  function jointDecorations(f, size) {
    const g = new THREE.Group();
    const axes = f.joint.axes || [];
    const limits = f.joint.limits || [];
    axes.forEach((a, i) => {
      if (!a) return;
      const arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), size * 2.2, i ? 0xffab00 : 0xfdd835, size * 0.35, size * 0.18);
      arrow.userData.axis = i;
      g.add(arrow);
      const lim = limits[i];
      const t = f.joint.type;
      if ((t === 'revolute' || t === 'revolute2' || t === 'universal') && lim && Math.abs(lim.lower) < 1e15 && Math.abs(lim.upper) < 1e15 && lim.upper > lim.lower) {
        const r = size * 1.2;
        const pts = [];
        const n = 48;
        pts.push(new THREE.Vector3(0, 0, 0));
        for (let k = 0; k <= n; k++) {
          const ang = lim.lower + ((lim.upper - lim.lower) * k) / n;
          pts.push(new THREE.Vector3(Math.cos(ang) * r, Math.sin(ang) * r, 0));
        }
        pts.push(new THREE.Vector3(0, 0, 0));
        const arc = new THREE.Line(new THREE.BufferGeometry().setFromPoints(pts), new THREE.LineBasicMaterial({ color: 0xfdd835, transparent: true, opacity: 0.7 }));
        arc.userData.axis = i;
        arc.userData.arc = true;
        g.add(arc);
      }
    });
    return g;
  }

  /** The turn of a limit arc drawn in its local XY plane (angle 0 along local x): z along `dir` (the axis in the
   * joint frame), x along the joint frame's x projected on the plane normal to the axis (its y where x is the
   * axis), then turned by -`position` about the axis. */
  function arcOrientation(dir, position) {
    const n = dir.clone().normalize();
    let zero = new THREE.Vector3(1, 0, 0);
    if (Math.abs(zero.dot(n)) > 0.999) zero = new THREE.Vector3(0, 1, 0);
    zero.addScaledVector(n, -zero.dot(n)).normalize();
    zero.applyAxisAngle(n, -position);
    const y = new THREE.Vector3().crossVectors(n, zero);
    return new THREE.Quaternion().setFromRotationMatrix(new THREE.Matrix4().makeBasis(zero, y, n));
  }

  /** Poses every object from `frames` (already moved by the joint values). */
  function place(frames) {
    const inv = new THREE.Quaternion();
    for (const f of frames) {
      const e = nodes.get(f.id);
      if (!e) continue;
      applyPose(e.frame, f.pose);
      if (e.label) {
        e.label.position.set(f.pose.xyz[0], f.pose.xyz[1], f.pose.xyz[2] + (scale * 0.04 * 1.6));
      }
      (f.visuals || []).forEach((v, i) => e.visuals[i] && applyPose(e.visuals[i], v.pose));
      (f.collisions || []).forEach((v, i) => e.collisions[i] && applyPose(e.collisions[i], v.pose));
      if (e.axes && f.joint) {
        inv.copy(e.frame.quaternion).invert();
        for (const child of e.axes.children) {
          const a = (f.joint.axes || [])[child.userData.axis];
          if (!a) continue;
          const dir = new THREE.Vector3(a[0], a[1], a[2]).applyQuaternion(inv).normalize();
          if (child.userData.arc) {
            // the arc lies in the plane normal to the axis, its zero along the joint frame's x projected on it
            // at rest: the joint frame turns with the child, so the arc is turned back by the joint's position
            // and stays still in the parent while the child moves through it
            const pos = (f.joint.position || [])[child.userData.axis] || 0;
            child.quaternion.copy(arcOrientation(dir, pos));
          } else child.setDirection(dir);
        }
      }
    }
    instances.moved();
    triads.moved();
    if (highlighted !== null) highlight(highlighted, false);
  }

  /** What a visual or collision holder is drawn with: its materials and their world boxes (cloned meshes and
   * instances alike); placeholders only when asked. */
  function drawnParts(holder, placeholders = false) {
    instances.sync();
    holder.updateMatrixWorld(true);
    const out = [];
    holder.traverse((c) => {
      if (c.isMesh && (placeholders || !c.userData.placeholder)) out.push({ material: c.material, box: new THREE.Box3().setFromObject(c) });
    });
    return out.concat(instances.drawnOf(holder));
  }

  let fittedOnce = false;
  function fit(view = 'iso') {
    instances.sync();
    triads.sync();
    const box = new THREE.Box3();
    for (const g of [layers.visuals, layers.frames]) box.expandByObject(g);
    if (box.isEmpty()) return;
    fittedOnce = true;
    const center = box.getCenter(new THREE.Vector3());
    const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 0.05);
    const d = radius / Math.sin((camera.fov * Math.PI) / 360);
    const dirs = { iso: [1, -1, 0.7], top: [0, -0.0001, 1], front: [1, 0, 0], side: [0, -1, 0] };
    const dir = new THREE.Vector3(...dirs[view]).normalize();
    camera.position.copy(center).addScaledVector(dir, d);
    camera.near = Math.max(d / 1000, 0.0005);
    camera.far = d * 100;
    camera.updateProjectionMatrix();
    controls.target.copy(center);
    controls.update();
    requestRender();
  }

  // -- joints --------------------------------------------------------------------------------------
  function movable(frames) {
    return frames.filter((f) => f.kind === 'joint' && f.joint && f.pose && axisCount(f.joint.type) > 0);
  }

  function buildSliders(frames) {
    jointsPanel.innerHTML = '';
    const joints = movable(frames);
    if (joints.length === 0) return;
    const head = document.createElement('div');
    head.innerHTML = '<b>Joints</b> <button data-reset="*" title="Every joint back to 0">reset all</button>';
    jointsPanel.appendChild(head);
    for (const j of joints) {
      const n = axisCount(j.joint.type);
      for (let i = 0; i < n; i++) {
        const lim = (j.joint.limits || [])[i] || { lower: -1e16, upper: 1e16 };
        const mimic = (j.joint.mimic || [])[i];
        const prismatic = j.joint.type === 'prismatic';
        const bounded = Math.abs(lim.lower) < 1e15 && Math.abs(lim.upper) < 1e15 && lim.upper >= lim.lower && j.joint.type !== 'continuous';
        const lower = bounded ? lim.lower : prismatic ? -1 : -Math.PI;
        const upper = bounded ? lim.upper : prismatic ? 1 : Math.PI;
        const row = document.createElement('div');
        row.className = 'j';
        const name = n > 1 ? `${j.name} [${i + 1}]` : j.name;
        const cur = valueOf(j.name, i);
        row.innerHTML = `<span class="name" title="${escapeHtml(name)}">${escapeHtml(name)}</span><span class="val"></span><button title="back to 0">0</button>
          <input type="range" min="${lower}" max="${upper}" step="any" value="${cur}" ${mimic ? 'disabled' : ''}>`;
        const input = row.querySelector('input');
        input.dataset.joint = j.name;
        input.dataset.axis = String(i);
        input.setAttribute('aria-label', name);
        const val = row.querySelector('.val');
        const show = (x) => (val.textContent = prismatic ? `${x.toFixed(3)} m` : `${((x * 180) / Math.PI).toFixed(1)}°`);
        show(cur);
        if (mimic) row.title = `follows ${mimic.joint} (× ${mimic.multiplier} + ${mimic.offset})`;
        input.addEventListener('input', () => {
          setValue(j.name, i, Number(input.value));
          show(Number(input.value));
          update();
        });
        row.querySelector('button').addEventListener('click', () => {
          setValue(j.name, i, 0);
          input.value = '0';
          show(0);
          update();
        });
        jointsPanel.appendChild(row);
      }
    }
    head.querySelector('button').addEventListener('click', () => {
      positions = {};
      for (const input of jointsPanel.querySelectorAll('input[type=range]')) input.value = '0';
      buildSliders(rest.frames);
      update();
    });
  }

  function valueOf(name, i) {
    const v = positions[name];
    if (Array.isArray(v)) return v[i] || 0;
    return i === 0 && typeof v === 'number' ? v : 0;
  }
  function setValue(name, i, x) {
    const v = Array.isArray(positions[name]) ? positions[name].slice() : [valueOf(name, 0), valueOf(name, 1)];
    v[i] = x;
    positions[name] = v;
    host.save({ positions });
  }

  let current = null;
  function update() {
    if (!rest) return;
    current = poseFrames(rest.frames, positions);
    place(current);
    // the mimic followers' sliders show where their leaders put them
    for (const f of current) {
      if (f.kind !== 'joint' || !f.joint || !f.joint.position) continue;
      f.joint.position.forEach((x, i) => {
        const input = jointsPanel.querySelector(`input[data-joint="${CSS.escape(f.name)}"][data-axis="${i}"]`);
        if (input && input.disabled) {
          input.value = String(x);
          const val = input.parentElement.querySelector('.val');
          val.textContent = f.joint.type === 'prismatic' ? `${x.toFixed(3)} m` : `${((x * 180) / Math.PI).toFixed(1)}°`;
        }
      });
    }
    requestRender();
  }

  // -- messages ------------------------------------------------------------------------------------
  function receive(message) {
    if (!message) return;
    if (message.type === 'frames') {
      if (!firstDrawStart) firstDrawStart = performance.now();
      rest = message;
      const frames = message.frames || [];
      const s = structureOf(frames);
      if (s !== structure) {
        structure = s;
        build(frames);
        buildSliders(frames);
      }
      update();
      if (!fittedOnce && stats.pending === 0) fit();
      report();
    } else if (message.type === 'highlight') {
      highlight(message.id, true);
    } else if (message.type === 'reset') {
      positions = {};
      if (rest) buildSliders(rest.frames);
      update();
    }
  }

  let box = null;
  function highlight(id, render) {
    highlighted = id;
    if (box) {
      scene.remove(box);
      box = null;
    }
    const e = nodes.get(id);
    if (e) {
      const b = new THREE.Box3();
      for (const o of e.visuals) for (const part of drawnParts(o, true)) b.union(part.box);
      if (b.isEmpty()) {
        // a frame without visuals: its triad (the origin and the three arrows' tips) and its joint decorations
        b.expandByObject(e.frame);
        for (const tip of [[0, 0, 0], [e.size, 0, 0], [0, e.size, 0], [0, 0, e.size]]) b.expandByPoint(new THREE.Vector3(...tip).applyMatrix4(e.frame.matrixWorld));
      }
      box = new THREE.Box3Helper(b, 0x00e5ff);
      scene.add(box);
    }
    if (render) requestRender();
  }

  // links drawn that Gazebo does not load (a URDF's links without mass, drawn as the URDF describes them)
  function notLoaded() {
    const links = rest ? rest.frames.filter((f) => f.kind === 'link' && f.pose && f.problem) : [];
    return links.length ? `\n${links.length} link${links.length > 1 ? 's' : ''} drawn that Gazebo does not load (${links[0].name}: ${links[0].problem})` : '';
  }

  function report() {
    const done = stats.pending === 0 && textureLoads.pending === 0;
    const message = {
      type: 'rendered', frames: stats.frames, visuals: stats.visuals, meshes: stats.meshes, failedMeshes: stats.failedMeshes,
      placeholders: stats.placeholders, pending: stats.pending + textureLoads.pending, problems: stats.problems.slice(0, 50),
      joints: rest ? movable(rest.frames).length : 0,
      drawMs: done && firstDrawStart ? Math.round(performance.now() - firstDrawStart) : null,
    };
    window.__sdfView = { ...message, renders, scale, parseMs: Math.round(loadTimes.parseMs), workerFiles: loadTimes.workerFiles, readFiles: loadTimes.readFiles, gzipFiles: loadTimes.gzipFiles, workerInflated: loadTimes.workerInflated, renderMs: Math.round(renderMs), drawCalls, ...instances.counts() };
    if (done && firstDrawStart) {
      // the phases of this draw, in ms from the frames message (scripts/view_vscode.py prints them)
      const at = (t) => (t >= firstDrawStart ? Math.round(t - firstDrawStart) : null);
      window.__sdfView.phases = {
        meshesLoaded: at(phases.meshLoaded), imagesRead: at(phases.imageRead), imagesDecoded: at(phases.imageDecoded),
        imageMB: Math.round(phases.imageBytes / 1e5) / 10, imageMpx: Math.round(phases.imagePixels / 1e5) / 10,
        uploadsEnd: at(uploadTimes.lastEnd), compileMs: Math.round(uploadTimes.compileMs), textureMs: Math.round(uploadTimes.textureMs),
        textures: uploadTimes.textures, imageReads: phases.imageReads, imageFiles: phases.imageFiles.size, fenceMs: Math.round(uploadTimes.fenceMs), drawn: message.drawMs,
      };
    }
    if (done) host.post(message);
    const problems = stats.problems.length ? `\n${stats.problems.slice(0, 5).join('\n')}${stats.problems.length > 5 ? `\n… ${stats.problems.length - 5} more` : ''}` : '';
    status.textContent = `${stats.frames} frames, ${stats.visuals} visuals` + (stats.pending ? `, loading ${stats.pending} meshes…` : '') + (textureLoads.pending ? `, loading ${textureLoads.pending} textures…` : '') +
      (stats.placeholders ? `, ${stats.placeholders} meshes not drawn (red boxes)` : '') + (rest && rest.truncated ? ' (truncated)' : '') + problems +
      (rest && !rest.root && rest.problem ? `\nnothing to draw: ${rest.problem}` : '') + notLoaded();
    if (done) firstDrawStart = 0;
  }

  // -- input ---------------------------------------------------------------------------------------
  root.querySelector('#sdf-bar').addEventListener('click', (e) => {
    const act = e.target && e.target.dataset ? e.target.dataset.act : undefined;
    if (act) fit(act === 'fit' ? 'iso' : act);
  });
  root.querySelector('#sdf-bar').addEventListener('change', (e) => {
    const opt = e.target && e.target.dataset ? e.target.dataset.opt : undefined;
    if (!opt) return;
    options[opt] = e.target.checked;
    layers[opt].visible = e.target.checked;
    if (opt === 'collisions' && e.target.checked && !collisionsBuilt && rest) {
      buildCollisions(rest.frames, generation, null);
      if (current) place(current);
    }
    requestRender();
  });

  const raycaster = new THREE.Raycaster();
  let down = null;
  renderer.domElement.addEventListener('pointerdown', (e) => (down = [e.clientX, e.clientY]));
  renderer.domElement.addEventListener('pointerup', (e) => {
    if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 4) return; // a drag orbits
    const id = pick(e.clientX, e.clientY);
    if (id !== undefined) {
      highlight(id, true);
      host.post({ type: 'reveal', id });
    }
  });
  function pick(x, y) {
    const rect = renderer.domElement.getBoundingClientRect();
    const p = new THREE.Vector2(((x - rect.left) / rect.width) * 2 - 1, -((y - rect.top) / rect.height) * 2 + 1);
    raycaster.setFromCamera(p, camera);
    // meshes only (triangles hit exactly): no line is picked within a tolerance
    instances.sync();
    triads.sync();
    const visible = pickable.concat(instances.meshes(), triads.meshes()).filter((o) => {
      for (let a = o; a; a = a.parent) if (!a.visible) return false;
      return true;
    });
    const hit = raycaster.intersectObjects(visible, false)[0];
    if (!hit) return undefined;
    const data = hit.object.userData;
    if (data.frameOfFace) return data.frameOfFace(hit.faceIndex);
    return hit.object.isInstancedMesh ? data.frameIds[hit.instanceId] : data.frameId;
  }

  // for tests: where an entry is on the screen, and the box of its drawn geometry
  window.__sdfViewApi = {
    screenOf(id) {
      const e = nodes.get(id);
      if (!e) return null;
      const v = new THREE.Vector3().setFromMatrixPosition(e.frame.matrixWorld).project(camera);
      const rect = renderer.domElement.getBoundingClientRect();
      return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
    },
    /** Where a point given in an entry's frame (`[x, y, z]`, metres) is on the screen. */
    screenOfLocal(id, xyz) {
      const e = nodes.get(id);
      if (!e) return null;
      const v = new THREE.Vector3(...xyz).applyMatrix4(e.frame.matrixWorld).project(camera);
      const rect = renderer.domElement.getBoundingClientRect();
      return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
    },
    triadSize: () => triadSizeNow,
    /** What is sized to the scene: the triads, the labels' height, the grid's side and cell; and the camera's
     * direction from its target (a unit vector). */
    sizes() {
      const first = layers.labels.children[0];
      const cells = grid ? grid.userData.cells : 0;
      return { triad: triadSizeNow, label: first ? first.scale.y : null, grid: grid ? grid.userData.side : null, cell: grid ? grid.userData.side / cells : null };
    },
    cameraDirection: () => camera.position.clone().sub(controls.target).normalize().toArray(),
    /** The world directions of a joint's limit arc (axis `i`): its zero, its lower and upper ends; null without one. */
    arcOf(id, i = 0) {
      const e = nodes.get(id);
      const arc = e && e.axes ? e.axes.children.find((c) => c.userData.arc && c.userData.axis === i) : null;
      if (!arc) return null;
      arc.updateMatrixWorld(true);
      const pts = arc.geometry.attributes.position;
      const origin = new THREE.Vector3().setFromMatrixPosition(arc.matrixWorld);
      const world = (v) => v.applyMatrix4(arc.matrixWorld).sub(origin).normalize().toArray();
      return {
        zero: world(new THREE.Vector3(1, 0, 0)),
        lower: world(new THREE.Vector3().fromBufferAttribute(pts, 1)),
        upper: world(new THREE.Vector3().fromBufferAttribute(pts, pts.count - 2)),
      };
    },
    screenOfPoint(xyz) {
      const v = new THREE.Vector3(...xyz).project(camera);
      const rect = renderer.domElement.getBoundingClientRect();
      return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
    },
    boxOf(id, which = 'visuals') {
      const e = nodes.get(id);
      if (!e) return null;
      const b = new THREE.Box3();
      for (const o of e[which]) for (const part of drawnParts(o)) b.union(part.box);
      return b.isEmpty() ? null : [b.min.toArray(), b.max.toArray()];
    },
    pick,
    /** A message as the host delivers it (the editor's `highlight` when its cursor moves, `frames`, `reset`). */
    receive,
    /** The highlighted entry and the box drawn around it: [id, [min, max]], or null. */
    highlighted() {
      return highlighted === null || !box ? null : [highlighted, [box.box.min.toArray(), box.box.max.toArray()]];
    },
    /** The texture maps (their URLs and image sizes, by material slot) and roughness/metalness of an entry's visual materials. */
    mapsOf(id) {
      const e = nodes.get(id);
      const out = [];
      for (const o of e ? e.visuals : []) for (const { material } of drawnParts(o)) {
        for (const m of Array.isArray(material) ? material : [material]) {
          const maps = {};
          for (const k of ['map', 'normalMap', 'roughnessMap', 'metalnessMap']) if (m[k]) maps[k] = { url: m[k].image ? m[k].image.src || m[k].image.currentSrc || '' : '', loaded: Boolean(m[k].image && m[k].image.width), size: m[k].image ? [m[k].image.width, m[k].image.height] : null, levels: m[k].mipmaps.map((l) => [l.width, l.height]) };
          out.push({ maps, roughness: m.roughness, metalness: m.metalness });
        }
      }
      return out;
    },
    /** The colours (hex) of the materials an entry's visuals are drawn with. */
    colorsOf(id) {
      const e = nodes.get(id);
      const out = new Set();
      for (const o of e ? e.visuals : []) for (const { material } of drawnParts(o)) {
        for (const m of Array.isArray(material) ? material : [material]) if (m.color) out.add(m.color.getHexString());
      }
      return [...out].sort();
    },
    opacityOf(id) {
      const e = nodes.get(id);
      let least = null;
      for (const o of e ? e.visuals : []) for (const { material } of drawnParts(o)) {
        for (const m of Array.isArray(material) ? material : [material]) least = least === null ? m.opacity : Math.min(least, m.opacity);
      }
      return least;
    },
    poseOf(id) {
      const e = nodes.get(id);
      return e ? [e.frame.position.toArray(), e.frame.quaternion.toArray()] : null;
    },
    /**
     * Orbits the camera by `n` steps, one per animation frame as a drag would, each finished by the
     * renderer before the next, and answers the frames per second a user sees. Timing the draw calls
     * alone said ~1000 frames/s where a software-WebGL redraw of small_house takes over 100 ms: the
     * calls only queue work, and frames never shown cost less than frames shown.
     */
    async orbit(n = 60) {
      instances.sync();
      triads.sync();
      const gl = renderer.getContext();
      const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const target = controls.target.clone();
      const offset = camera.position.clone().sub(target);
      const q = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(0, 0, 1), (2 * Math.PI) / n);
      const start = { position: camera.position.clone(), quaternion: camera.quaternion.clone() };
      motion(true); // as a drag does
      await nextFrame();
      resolution();
      const t0 = performance.now();
      let elapsed = 0;
      try {
        for (let i = 0; i < n; i++) {
          offset.applyQuaternion(q);
          camera.position.copy(target).add(offset);
          camera.lookAt(target);
          const t = performance.now();
          resolution();
          renderer.render(scene, camera);
          gl.finish();
          await nextFrame();
          motionFrameCost(performance.now() - t);
        }
        elapsed = performance.now() - t0;
      } finally {
        // back where it started, and the still frame drawn at full resolution before the answer
        camera.position.copy(start.position);
        camera.quaternion.copy(start.quaternion);
        const still = new Promise((resolve) => afterDraw.push(resolve));
        motion(false);
        requestRender();
        await still;
      }
      return (n * 1000) / elapsed;
    },
    /** The triangles of the last frame drawn (fewer while the camera moves on software WebGL). */
    triangles: () => renderer.info.render.triangles,
    /** The size of the drawing buffer in pixels (smaller while the camera moves on software WebGL). */
    bufferSize: () => [renderer.domElement.width, renderer.domElement.height],
    frames: () => current,
    positions: () => positions,
  };

  textureLoads.listener = settle;
  host.onMessage(receive);
  host.post({ type: 'ready' });
  requestRender();
}

/** Whether a parsed mesh holds any triangle (or line) to draw. */
function drawsSomething(template) {
  let found = false;
  template.traverse((o) => {
    const position = o.geometry && o.geometry.attributes ? o.geometry.attributes.position : undefined;
    if (!found && (o.isMesh || o.isLine || o.isPoints) && position && position.count > 0) found = true;
  });
  return found;
}

/** A mesh's own material(s) with their opacity times a visual's <transparency> opacity (copies). */
function dimmed(material, opacity) {
  const mats = (Array.isArray(material) ? material : [material]).map((m) => {
    const c = m.clone();
    c.opacity = m.opacity * opacity;
    c.transparent = c.opacity < 1;
    return c;
  });
  return Array.isArray(material) ? mats : mats[0];
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}
