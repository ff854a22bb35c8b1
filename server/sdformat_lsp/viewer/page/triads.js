// Every frame's triad (x red, y green, z blue arrows and a hub) drawn as instances: the shafts of all triads are
// one line-segments object, their cones one THREE.InstancedMesh and their hubs another. A world's hundreds of
// frames are then three draw calls, where one triad of three arrows and a hub was seven (small_house's 262 frames
// took 1834 of its 2011 draw calls a frame). The triads follow the frame objects they were added for: their
// world matrices are read again when something moved. Cones and hubs are picked by their triangles (a hit's
// instanceId gives the frame); the shafts are never picked.
import * as THREE from 'three';

const AXES = [
  [new THREE.Vector3(1, 0, 0), new THREE.Color(0xe53935)],
  [new THREE.Vector3(0, 1, 0), new THREE.Color(0x43a047)],
  [new THREE.Vector3(0, 0, 1), new THREE.Color(0x1e88e5)],
];
// the proportions of the arrows as they were drawn with THREE.ArrowHelper: head 25% of the length, 12% wide
const HEAD_LENGTH = 0.25;
const HEAD_WIDTH = 0.12;
const HUB_RADIUS = 0.08;

const coneGeometry = new THREE.ConeGeometry(0.5, 1, 5, 1).translate(0, -0.5, 0); // its tip at the origin
const hubGeometry = new THREE.SphereGeometry(1, 10, 8);
// an arrow along +y turned to each axis, its cone's tip at the arrow's length
const TURN = AXES.map(([dir]) => new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), dir));

export function createTriads(layer) {
  let entries = []; // {frame: Object3D, size, id}
  let objects = null; // {shafts, cones, hubs}
  let rebuild = true;
  let moved = false;
  const m = new THREE.Matrix4();
  const local = new THREE.Matrix4();
  const p = new THREE.Vector3();
  const s = new THREE.Vector3();

  function build() {
    if (objects) for (const o of Object.values(objects)) {
      layer.remove(o);
      if (o.isInstancedMesh) o.dispose();
      else o.geometry.dispose();
    }
    objects = null;
    if (entries.length === 0) return;
    const n = entries.length;
    const shaftGeometry = new THREE.BufferGeometry();
    shaftGeometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(n * 3 * 2 * 3), 3));
    const colours = new Float32Array(n * 3 * 2 * 3);
    for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) for (let k = 0; k < 2; k++) AXES[a][1].toArray(colours, ((i * 3 + a) * 2 + k) * 3);
    shaftGeometry.setAttribute('color', new THREE.BufferAttribute(colours, 3));
    const shafts = new THREE.LineSegments(shaftGeometry, new THREE.LineBasicMaterial({ vertexColors: true, toneMapped: false }));
    const cones = new THREE.InstancedMesh(coneGeometry, new THREE.MeshBasicMaterial({ toneMapped: false }), n * 3);
    const hubs = new THREE.InstancedMesh(hubGeometry, new THREE.MeshBasicMaterial({ color: 0xdddddd }), n);
    cones.userData.frameIds = entries.flatMap((e) => [e.id, e.id, e.id]);
    hubs.userData.frameIds = entries.map((e) => e.id);
    for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) cones.setColorAt(i * 3 + a, AXES[a][1]);
    objects = { shafts, cones, hubs };
    for (const o of Object.values(objects)) layer.add(o);
  }

  function place() {
    const pos = objects.shafts.geometry.attributes.position;
    entries.forEach((e, i) => {
      e.frame.updateMatrixWorld(true);
      const w = e.frame.matrixWorld;
      const size = e.size;
      AXES.forEach(([dir], a) => {
        // the shaft from the origin to the cone's base
        p.set(0, 0, 0).applyMatrix4(w);
        pos.setXYZ((i * 3 + a) * 2, p.x, p.y, p.z);
        p.copy(dir).multiplyScalar(size * (1 - HEAD_LENGTH)).applyMatrix4(w);
        pos.setXYZ((i * 3 + a) * 2 + 1, p.x, p.y, p.z);
        local.compose(
          s.copy(dir).multiplyScalar(size),
          TURN[a],
          new THREE.Vector3(size * HEAD_WIDTH, size * HEAD_LENGTH, size * HEAD_WIDTH),
        );
        objects.cones.setMatrixAt(i * 3 + a, m.copy(w).multiply(local));
      });
      local.makeScale(size * HUB_RADIUS, size * HUB_RADIUS, size * HUB_RADIUS);
      objects.hubs.setMatrixAt(i, m.copy(w).multiply(local));
    });
    pos.needsUpdate = true;
    objects.shafts.geometry.computeBoundingBox();
    objects.shafts.geometry.computeBoundingSphere();
    for (const o of [objects.cones, objects.hubs]) {
      o.instanceMatrix.needsUpdate = true;
      o.computeBoundingBox();
      o.computeBoundingSphere(); // frustum culling uses it
    }
  }

  return {
    /** A triad of `size` (metres) on `frame` (an Object3D, posed by the caller) for the frame `id`. */
    add(frame, size, id) {
      entries.push({ frame, size, id });
      rebuild = true;
    },
    moved() {
      moved = true;
    },
    /** Makes the drawn triads match their frames (before a draw, a pick or a measurement). */
    sync() {
      if (rebuild) {
        rebuild = false;
        moved = true;
        build();
      }
      if (moved && objects) place();
      moved = false;
    },
    clear() {
      entries = [];
      rebuild = true;
      moved = false;
      if (objects) for (const o of Object.values(objects)) {
        layer.remove(o);
        if (o.isInstancedMesh) o.dispose();
        else o.geometry.dispose();
      }
      objects = null;
    },
    /** The pickable meshes (cones and hubs: userData.frameIds by instanceId). */
    meshes() {
      return objects ? [objects.cones, objects.hubs] : [];
    },
  };
}
