// Forward kinematics in the page, so that a joint slider moves the robot at once without asking the
// server. The same rules as the server's (sdformat_lsp/semantics/kinematics.py, docs/server.md): a
// joint moves its child link about its frame at rest, mimic followers take
// multiplier * (leader - reference) + offset, a link that is the child of several joints follows the
// first. Input: the frames of an `sdformat/frames` answer at rest. Plain math, no three.js: run by
// node in tests/viewer/test_page_kinematics.py against the server's posed answer.

const TWO_AXES = new Set(['revolute2', 'universal']);
const MOVABLE = new Set(['revolute', 'continuous', 'prismatic', 'screw', 'revolute2', 'universal']);

export function axisCount(type) {
  if (TWO_AXES.has(type)) return 2;
  return MOVABLE.has(type) ? 1 : 0;
}

// quaternions as [x, y, z, w] (the answer's order)
function qmul(a, b) {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

export function rotate(q, v) {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

function normalized(q) {
  const n = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** a * b for poses {p, q}. */
export function compose(a, b) {
  const r = rotate(a.q, b.p);
  return { p: [a.p[0] + r[0], a.p[1] + r[1], a.p[2] + r[2]], q: normalized(qmul(a.q, b.q)) };
}

const IDENTITY = { p: [0, 0, 0], q: [0, 0, 0, 1] };

function about(point, axis, angle, slide) {
  const s = Math.sin(angle / 2);
  const q = [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
  const r = rotate(q, point);
  return { p: [point[0] - r[0] + axis[0] * slide, point[1] - r[1] + axis[1] * slide, point[2] - r[2] + axis[2] * slide], q };
}

function jointTransform(j, v) {
  const axes = j.joint.axes || [];
  const p = j.pose.xyz;
  const a0 = axes[0];
  const t = j.joint.type;
  if ((t === 'revolute' || t === 'continuous') && a0) return about(p, a0, v[0] || 0, 0);
  if (t === 'prismatic' && a0) return about(p, a0, 0, v[0] || 0);
  if (t === 'screw' && a0) return about(p, a0, v[0] || 0, ((v[0] || 0) * (j.joint.pitch ?? 1)) / (2 * Math.PI));
  if (TWO_AXES.has(t)) {
    let out = IDENTITY;
    if (a0) out = about(p, a0, v[0] || 0, 0);
    if (axes[1]) out = compose(out, about(p, axes[1], v[1] || 0, 0));
    return out;
  }
  return IDENTITY;
}

/** Each movable joint's values: those given (number or list), 0 otherwise, mimic followers from their leaders. */
export function jointValues(frames, given) {
  const joints = frames.filter((f) => f.kind === 'joint' && f.joint && f.pose);
  const byName = new Map(joints.map((j) => [j.name, j]));
  const raw = new Map();
  for (const j of joints) {
    const n = axisCount(j.joint.type);
    let g = given[j.name];
    if (typeof g === 'number') g = [g];
    const vals = new Array(n).fill(0);
    if (Array.isArray(g)) g.slice(0, n).forEach((x, i) => { if (typeof x === 'number' && Number.isFinite(x)) vals[i] = x; });
    raw.set(j.name, vals);
  }
  const leaderOf = (name, axis) => {
    const m = ((byName.get(name).joint.mimic) || [])[axis];
    if (!m || !m.leader || !raw.has(m.leader)) return null;
    const la = m.axis === 'axis2' ? 1 : 0;
    if (la >= raw.get(m.leader).length) return null;
    return { key: `${m.leader}\u0000${la}`, name: m.leader, axis: la, m };
  };
  const resolved = new Map();
  for (const [name, vals] of raw) {
    for (let i = 0; i < vals.length; i++) {
      let chain = [];
      const on = new Set();
      let cur = { name, axis: i, key: `${name}\u0000${i}` };
      while (!resolved.has(cur.key)) {
        if (on.has(cur.key)) { // a cycle of mimics: the given values
          for (const k of chain) resolved.set(k.key, raw.get(k.name)[k.axis]);
          chain = [];
          break;
        }
        const l = leaderOf(cur.name, cur.axis);
        if (!l) { resolved.set(cur.key, raw.get(cur.name)[cur.axis]); break; }
        chain.push(cur);
        on.add(cur.key);
        cur = l;
      }
      for (const k of chain.reverse()) {
        const l = leaderOf(k.name, k.axis);
        resolved.set(k.key, l.m.multiplier * (resolved.get(l.key) - (l.m.reference || 0)) + l.m.offset);
      }
    }
  }
  const out = {};
  for (const [name, vals] of raw) out[name] = vals.map((_, i) => resolved.get(`${name}\u0000${i}`));
  return out;
}

/** delta(link name) for every joint's child link. */
export function linkMotions(frames, values) {
  const first = new Map();
  for (const j of frames) {
    if (j.kind !== 'joint' || !j.joint || !j.pose) continue;
    const c = j.joint.childLink;
    if (c && !first.has(c) && c !== j.joint.parentLink) first.set(c, j);
  }
  const deltas = new Map();
  for (const start of first.keys()) {
    if (deltas.has(start)) continue;
    const chain = [];
    const seen = new Set();
    let cur = start;
    while (cur && first.has(cur) && !deltas.has(cur) && !seen.has(cur)) {
      seen.add(cur);
      chain.push(cur);
      cur = first.get(cur).joint.parentLink;
    }
    if (cur && seen.has(cur)) { for (const b of chain) deltas.set(b, IDENTITY); continue; }
    let base = cur && deltas.has(cur) ? deltas.get(cur) : IDENTITY;
    for (const b of chain.reverse()) {
      const j = first.get(b);
      base = compose(base, jointTransform(j, values[j.name] || []));
      deltas.set(b, base);
    }
  }
  return deltas;
}

function posed(pose, d) {
  const m = compose(d, { p: pose.xyz, q: pose.quaternion });
  return { ...pose, xyz: m.p, quaternion: m.q };
}

/** The frames moved by the joint values `given` (joint name -> number or list): new objects, the input untouched. */
export function poseFrames(frames, given) {
  const values = jointValues(frames, given);
  const deltas = linkMotions(frames, values);
  return frames.map((f) => {
    const d = f.pose && f.attachedTo ? deltas.get(f.attachedTo) : undefined;
    let out = f;
    if (d) {
      out = { ...f, pose: posed(f.pose, d) };
      if (f.visuals) out.visuals = f.visuals.map((v) => (v.pose ? { ...v, pose: posed(v.pose, d) } : v));
      if (f.collisions) out.collisions = f.collisions.map((v) => (v.pose ? { ...v, pose: posed(v.pose, d) } : v));
    }
    if (f.kind === 'joint' && f.joint && values[f.name]) {
      out = { ...out, joint: { ...f.joint, position: values[f.name], axes: (f.joint.axes || []).map((a) => (a && d ? rotate(d.q, a) : a)) } };
    }
    return out;
  });
}
