// Every frame's triad (x red, y green, z blue arrows and a hub) drawn in two draw calls: the shafts of all triads
// are one line-segments object, and their cones and hubs one mesh whose triangles are placed in world space here.
// One triad of three arrows and a hub was seven draw calls (small_house's 262 frames took 1834 of its 2011 a
// frame). Instanced cones and hubs were two calls, but software WebGL (SwiftShader) pays for every instance: the
// merged mesh orbits small_house about an eighth faster, with the same triangles and colours. The triads follow
// the frame objects they were added for: their vertices are placed again when something moved. Cones and hubs
// are picked by their triangles (a hit's faceIndex gives the frame: each triad's triangles are one range); the
// shafts are never picked.
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
  let objects = null; // {shafts, marks}
  let rebuild = true;
  let moved = false;
  const m = new THREE.Matrix4();
  const local = new THREE.Matrix4();
  const p = new THREE.Vector3();
  const s = new THREE.Vector3();

  const coneIndex = coneGeometry.index.array;
  const conePositions = coneGeometry.attributes.position;
  const hubIndex = hubGeometry.index.array;
  const hubPositions = hubGeometry.attributes.position;
  const TRIAD_VERTICES = 3 * conePositions.count + hubPositions.count;
  const TRIAD_TRIANGLES = (3 * coneIndex.length + hubIndex.length) / 3;
  const HUB_COLOUR = new THREE.Color(0xdddddd);

  function dispose() {
    if (objects) for (const o of Object.values(objects)) {
      layer.remove(o);
      o.geometry.dispose();
    }
    objects = null;
  }

  function build() {
    dispose();
    if (entries.length === 0) return;
    const n = entries.length;
    const shaftGeometry = new THREE.BufferGeometry();
    shaftGeometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(n * 3 * 2 * 3), 3));
    const colours = new Float32Array(n * 3 * 2 * 3);
    for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) for (let k = 0; k < 2; k++) AXES[a][1].toArray(colours, ((i * 3 + a) * 2 + k) * 3);
    shaftGeometry.setAttribute('color', new THREE.BufferAttribute(colours, 3));
    const shafts = new THREE.LineSegments(shaftGeometry, new THREE.LineBasicMaterial({ vertexColors: true, toneMapped: false }));
    // cones (x, y, z) then the hub of each triad, one range of vertices and triangles per triad
    const markGeometry = new THREE.BufferGeometry();
    markGeometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(n * TRIAD_VERTICES * 3), 3));
    const markColours = new Float32Array(n * TRIAD_VERTICES * 3);
    const index = new Uint32Array(n * TRIAD_TRIANGLES * 3);
    let v = 0;
    let k = 0;
    for (let i = 0; i < n; i++) {
      const parts = AXES.map(([, colour]) => [coneIndex, conePositions.count, colour]).concat([[hubIndex, hubPositions.count, HUB_COLOUR]]);
      for (const [ix, count, colour] of parts) {
        for (const j of ix) index[k++] = v + j;
        for (let j = 0; j < count; j++) colour.toArray(markColours, (v + j) * 3);
        v += count;
      }
    }
    markGeometry.setAttribute('color', new THREE.BufferAttribute(markColours, 3));
    markGeometry.setIndex(new THREE.BufferAttribute(index, 1));
    const marks = new THREE.Mesh(markGeometry, new THREE.MeshBasicMaterial({ vertexColors: true, toneMapped: false }));
    const ids = entries.map((e) => e.id);
    marks.userData.frameOfFace = (face) => ids[Math.floor(face / TRIAD_TRIANGLES)];
    objects = { shafts, marks };
    for (const o of Object.values(objects)) layer.add(o);
  }

  // a part's vertices moved by `matrix` into the marks' positions from vertex `at`
  function placeInto(out, at, positions, matrix) {
    for (let j = 0; j < positions.count; j++) {
      p.fromBufferAttribute(positions, j).applyMatrix4(matrix);
      out.setXYZ(at + j, p.x, p.y, p.z);
    }
    return at + positions.count;
  }

  function place() {
    const pos = objects.shafts.geometry.attributes.position;
    const marks = objects.marks.geometry.attributes.position;
    entries.forEach((e, i) => {
      e.frame.updateMatrixWorld(true);
      const w = e.frame.matrixWorld;
      const size = e.size;
      let at = i * TRIAD_VERTICES;
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
        at = placeInto(marks, at, conePositions, m.copy(w).multiply(local));
      });
      local.makeScale(size * HUB_RADIUS, size * HUB_RADIUS, size * HUB_RADIUS);
      placeInto(marks, at, hubPositions, m.copy(w).multiply(local));
    });
    for (const o of [objects.shafts, objects.marks]) {
      o.geometry.attributes.position.needsUpdate = true;
      o.geometry.computeBoundingBox();
      o.geometry.computeBoundingSphere(); // frustum culling and picking use it
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
      dispose();
    },
    /** The pickable mesh (cones and hubs: userData.frameOfFace(faceIndex) gives the frame). */
    meshes() {
      return objects ? [objects.marks] : [];
    },
  };
}
