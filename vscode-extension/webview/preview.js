// The 3D preview of the frames (runs in the webview; bundled with three.js into dist/preview.js).
// SDFormat is Z-up: the camera's up is +Z. Each frame is an axis triad (x red, y green, z blue) at
// its resolved pose; joints show their axes as yellow arrows; links are labelled and their visuals
// drawn (boxes, cylinders, spheres, capsules, ellipsoids, planes; meshes through three.js's STL,
// OBJ and Collada loaders when the file resolved). Clicking a triad reveals its element.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { ColladaLoader } from 'three/examples/jsm/loaders/ColladaLoader.js';

const vscode = acquireVsCodeApi();
const status = document.getElementById('status');

const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio || 1);
renderer.setSize(window.innerWidth, window.innerHeight);
document.body.appendChild(renderer.domElement);

const scene = new THREE.Scene();
const styles = getComputedStyle(document.body);
scene.background = new THREE.Color(styles.getPropertyValue('--vscode-editor-background').trim() || '#1e1e1e');
const camera = new THREE.PerspectiveCamera(50, window.innerWidth / window.innerHeight, 0.001, 10000);
camera.up.set(0, 0, 1);
camera.position.set(3, -3, 2);
const controls = new OrbitControls(camera, renderer.domElement);
scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.0));
const sun = new THREE.DirectionalLight(0xffffff, 1.5);
sun.position.set(3, -2, 5);
scene.add(sun);
const grid = new THREE.GridHelper(10, 20, 0x888888, 0x444444);
grid.rotation.x = Math.PI / 2; // the XY plane (Z-up)
scene.add(grid);

let content = new THREE.Group();
scene.add(content);
let pickable = [];
let fitted = false;

function poseMatrix(pose) {
  const m = new THREE.Matrix4();
  if (!pose) return m;
  const [x, y, z] = pose.xyz;
  const [qx, qy, qz, qw] = pose.quaternion;
  m.compose(new THREE.Vector3(x, y, z), new THREE.Quaternion(qx, qy, qz, qw), new THREE.Vector3(1, 1, 1));
  return m;
}

function triad(size, id) {
  const g = new THREE.Group();
  const axes = [
    [new THREE.Vector3(1, 0, 0), 0xe53935],
    [new THREE.Vector3(0, 1, 0), 0x43a047],
    [new THREE.Vector3(0, 0, 1), 0x1e88e5],
  ];
  for (const [dir, color] of axes) {
    const arrow = new THREE.ArrowHelper(dir, new THREE.Vector3(), size, color, size * 0.2, size * 0.1);
    arrow.traverse((o) => (o.userData.frameId = id));
    g.add(arrow);
  }
  // An invisible sphere makes the triad easy to click.
  const hit = new THREE.Mesh(new THREE.SphereGeometry(size * 0.35, 8, 8), new THREE.MeshBasicMaterial({ visible: false }));
  hit.userData.frameId = id;
  g.add(hit);
  pickable.push(hit);
  g.traverse((o) => {
    if (o !== hit && (o.isMesh || o.isLine)) pickable.push(o);
  });
  return g;
}

function label(text, size) {
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  const font = 48;
  ctx.font = `${font}px sans-serif`;
  canvas.width = Math.ceil(ctx.measureText(text).width) + 16;
  canvas.height = font + 16;
  ctx.font = `${font}px sans-serif`;
  ctx.fillStyle = 'rgba(0,0,0,0.55)';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#ffffff';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, 8, canvas.height / 2);
  const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: new THREE.CanvasTexture(canvas), depthTest: false }));
  const h = size * 0.35;
  sprite.scale.set((h * canvas.width) / canvas.height, h, 1);
  sprite.renderOrder = 10;
  return sprite;
}

function material(color) {
  const c = color || [0.7, 0.7, 0.75, 1];
  return new THREE.MeshStandardMaterial({
    color: new THREE.Color(c[0], c[1], c[2]),
    transparent: c[3] < 1,
    opacity: Math.max(0.15, c[3]),
    roughness: 0.7,
  });
}

let meshes = 0;
let failedMeshes = 0;
let pending = 0;
const stlLoader = new STLLoader();
const objLoader = new OBJLoader();
const colladaLoader = new ColladaLoader();

function meshObject(v, parent, generation) {
  const url = v.mesh;
  const ext = (v.meshUri || url || '').split('?')[0].split('.').pop().toLowerCase();
  const done = (obj) => {
    if (generation !== currentGeneration) return;
    obj.scale.set(v.scale[0], v.scale[1], v.scale[2]);
    parent.add(obj);
    meshes++;
    finishOne();
  };
  const fail = () => {
    if (generation !== currentGeneration) return;
    failedMeshes++;
    finishOne();
  };
  pending++;
  if (ext === 'stl') {
    stlLoader.load(url, (geometry) => done(new THREE.Mesh(geometry, material(v.color))), undefined, fail);
  } else if (ext === 'obj') {
    objLoader.load(url, (group) => {
      group.traverse((o) => {
        if (o.isMesh && v.color) o.material = material(v.color);
      });
      done(group);
    }, undefined, fail);
  } else if (ext === 'dae') {
    colladaLoader.load(url, (collada) => done(collada.scene), undefined, fail);
  } else {
    pending--;
    failedMeshes++;
  }
}

function shape(v) {
  const s = v.size;
  let geometry;
  let rotate = false;
  switch (v.shape) {
    case 'box':
      geometry = new THREE.BoxGeometry(s[0], s[1], s[2]);
      break;
    case 'cylinder':
      geometry = new THREE.CylinderGeometry(s[0], s[0], s[1], 32);
      rotate = true; // three's cylinders run along Y, SDFormat's along Z
      break;
    case 'capsule':
      geometry = new THREE.CapsuleGeometry(s[0], s[1], 8, 24);
      rotate = true;
      break;
    case 'sphere':
      geometry = new THREE.SphereGeometry(s[0], 32, 16);
      break;
    case 'ellipsoid':
      geometry = new THREE.SphereGeometry(1, 32, 16);
      geometry.scale(s[0], s[1], s[2]);
      break;
    case 'plane':
      geometry = new THREE.PlaneGeometry(s[0], s[1]);
      break;
    default:
      return null;
  }
  if (rotate) geometry.rotateX(Math.PI / 2);
  const mesh = new THREE.Mesh(geometry, material(v.color));
  if (v.shape === 'plane') mesh.material.side = THREE.DoubleSide;
  return mesh;
}

let currentGeneration = 0;
let counts = { frames: 0, visuals: 0 };

function report() {
  vscode.postMessage({ type: 'rendered', frames: counts.frames, visuals: counts.visuals, meshes, failedMeshes });
  status.textContent = `${counts.frames} frames, ${counts.visuals} visuals` + (failedMeshes ? `, ${failedMeshes} meshes not loaded` : '');
}

function finishOne() {
  pending--;
  if (pending === 0) report();
}

function draw(message) {
  currentGeneration++;
  scene.remove(content);
  content = new THREE.Group();
  scene.add(content);
  pickable = [];
  meshes = 0;
  failedMeshes = 0;
  pending = 0;
  const frames = message.frames || [];
  const box = new THREE.Box3();
  for (const f of frames) if (f.pose) box.expandByPoint(new THREE.Vector3(...f.pose.xyz));
  const extent = box.isEmpty() ? 1 : Math.max(0.2, box.getSize(new THREE.Vector3()).length());
  const size = Math.min(0.3, Math.max(0.05, extent * 0.08));
  let visuals = 0;
  for (const f of frames) {
    if (!f.pose) continue;
    const node = new THREE.Group();
    node.applyMatrix4(poseMatrix(f.pose));
    node.add(triad(f.kind === 'link' || f.kind === 'model' || f.kind === 'world' ? size : size * 0.7, f.id));
    if (f.kind === 'link' || f.kind === 'model') {
      const l = label(f.name, size);
      l.position.set(0, 0, size * 1.3);
      node.add(l);
    }
    for (const axis of (f.joint && f.joint.axes) || []) {
      // axes are in the root frame: undo the joint's rotation
      const dir = new THREE.Vector3(axis[0], axis[1], axis[2]).applyQuaternion(node.quaternion.clone().invert());
      node.add(new THREE.ArrowHelper(dir.normalize(), new THREE.Vector3(), size * 2.2, 0xfdd835, size * 0.35, size * 0.18));
    }
    content.add(node);
    for (const v of f.visuals || []) {
      const holder = new THREE.Group();
      holder.applyMatrix4(poseMatrix(v.pose));
      if (v.shape === 'mesh') {
        if (v.mesh) meshObject(v, holder, currentGeneration);
        else failedMeshes++;
      } else {
        const m = shape(v);
        if (m) holder.add(m);
      }
      content.add(holder);
      visuals++;
    }
  }
  counts = { frames: frames.filter((f) => f.pose).length, visuals };
  if (!fitted && !box.isEmpty()) {
    const center = box.getCenter(new THREE.Vector3());
    const d = Math.max(extent, 0.5) * 1.6;
    camera.position.set(center.x + d, center.y - d, center.z + d * 0.7);
    controls.target.copy(center);
    controls.update();
    fitted = true;
  }
  if (pending === 0) report();
}

window.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'frames') draw(event.data);
});

const raycaster = new THREE.Raycaster();
let down = null;
renderer.domElement.addEventListener('pointerdown', (e) => (down = [e.clientX, e.clientY]));
renderer.domElement.addEventListener('pointerup', (e) => {
  if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 4) return; // a drag orbits
  const rect = renderer.domElement.getBoundingClientRect();
  const p = new THREE.Vector2(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(p, camera);
  const hit = raycaster.intersectObjects(pickable, false).find((h) => h.object.userData.frameId !== undefined);
  if (hit) vscode.postMessage({ type: 'reveal', id: hit.object.userData.frameId });
});

window.addEventListener('resize', () => {
  camera.aspect = window.innerWidth / window.innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(window.innerWidth, window.innerHeight);
});

function loop() {
  controls.update();
  renderer.render(scene, camera);
  requestAnimationFrame(loop);
}
loop();
vscode.postMessage({ type: 'ready' });
