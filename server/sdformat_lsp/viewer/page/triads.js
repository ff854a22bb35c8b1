// Every frame's triad (x red, y green, z blue arrows and a hub) drawn in two draw calls: the shafts of all triads
// are one line-segments object, and their cones and hubs one mesh whose triangles are placed in world space here.
// One triad of three arrows and a hub was seven draw calls (small_house's 262 frames took 1834 of its 2011 a
// frame). Instanced cones and hubs were two calls, but software WebGL (SwiftShader) pays for every instance: the
// merged mesh orbits small_house about an eighth faster, with the same triangles and colours. The triads follow
// the frame objects they were added for: their vertices are placed again when something moved. Cones and hubs
// are picked by their triangles (a hit's faceIndex gives the frame: each triad's triangles are one range); the
// shafts are never picked.
// While the camera moves on software WebGL the hubs are drawn coarser: a hub is an unlit ball of 140 triangles, and
// small_house's 262 hubs were a fifth of its triangles (SwiftShader's frame cost follows the triangles as much as
// the pixels: with the frames hidden small_house orbited about a fifth faster). The index holds the fine hubs, then
// the cones, then the coarse hubs, so the still picture and the moving one are each one contiguous draw range.
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
const coarseHubGeometry = new THREE.SphereGeometry(1, 6, 4); // 36 triangles, drawn only while the camera moves
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
  const coarseIndex = coarseHubGeometry.index.array;
  const coarsePositions = coarseHubGeometry.attributes.position;
  // a triad's vertices: its three cones, its hub, its coarse hub
  const TRIAD_VERTICES = 3 * conePositions.count + hubPositions.count + coarsePositions.count;
  const HUB_TRIANGLES = hubIndex.length / 3;
  const CONE_TRIANGLES = coneIndex.length; // three cones
  const COARSE_TRIANGLES = coarseIndex.length / 3;
  let coarse = false;
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
    // each triad's vertices in one range: cones (x, y, z), hub, coarse hub
    const markGeometry = new THREE.BufferGeometry();
    markGeometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(n * TRIAD_VERTICES * 3), 3));
    const markColours = new Float32Array(n * TRIAD_VERTICES * 3);
    // the triangles: every fine hub, then every triad's three cones, then every coarse hub
    const index = new Uint32Array(n * (HUB_TRIANGLES + CONE_TRIANGLES + COARSE_TRIANGLES) * 3);
    const coneAt = 0;
    const hubAt = 3 * conePositions.count;
    const coarseAt = hubAt + hubPositions.count;
    let k = 0;
    const addTriangles = (ix, offset) => {
      for (let i = 0; i < n; i++) for (const j of ix) index[k++] = i * TRIAD_VERTICES + offset + j;
    };
    addTriangles(hubIndex, hubAt);
    for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) for (const j of coneIndex) index[k++] = i * TRIAD_VERTICES + coneAt + a * conePositions.count + j;
    addTriangles(coarseIndex, coarseAt);
    for (let i = 0; i < n; i++) {
      const v = i * TRIAD_VERTICES;
      for (let a = 0; a < 3; a++) for (let j = 0; j < conePositions.count; j++) AXES[a][1].toArray(markColours, (v + a * conePositions.count + j) * 3);
      for (let j = hubAt; j < TRIAD_VERTICES; j++) HUB_COLOUR.toArray(markColours, (v + j) * 3);
    }
    markGeometry.setAttribute('color', new THREE.BufferAttribute(markColours, 3));
    markGeometry.setIndex(new THREE.BufferAttribute(index, 1));
    const marks = new THREE.Mesh(markGeometry, new THREE.MeshBasicMaterial({ vertexColors: true, toneMapped: false }));
    const ids = entries.map((e) => e.id);
    const hubs = n * HUB_TRIANGLES;
    const cones = n * CONE_TRIANGLES;
    marks.userData.frameOfFace = (face) => {
      if (face < hubs) return ids[Math.floor(face / HUB_TRIANGLES)];
      if (face < hubs + cones) return ids[Math.floor((face - hubs) / CONE_TRIANGLES)];
      return ids[Math.floor((face - hubs - cones) / COARSE_TRIANGLES)];
    };
    marks.userData.ranges = { still: [0, (hubs + cones) * 3], moving: [hubs * 3, (cones + n * COARSE_TRIANGLES) * 3] };
    marks.geometry.setDrawRange(...marks.userData.ranges[coarse ? 'moving' : 'still']);
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
      at = placeInto(marks, at, hubPositions, m.copy(w).multiply(local));
      placeInto(marks, at, coarsePositions, m);
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
    /** Coarse hubs (while the camera moves on software WebGL) or the fine ones; the cones are the same. */
    coarse(on) {
      coarse = on;
      if (objects) objects.marks.geometry.setDrawRange(...objects.marks.userData.ranges[on ? 'moving' : 'still']);
    },
    /** The pickable mesh (cones and hubs: userData.frameOfFace(faceIndex) gives the frame). */
    meshes() {
      return objects ? [objects.marks] : [];
    },
  };
}
