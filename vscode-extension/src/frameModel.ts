// The data of the server's `sdformat/frames` request (docs/server.md) and what the
// frame tree shows of it. Pure: no `vscode` import, so it is unit-tested under node.

export interface Pose {
  xyz: [number, number, number];
  rpy: [number, number, number];
  quaternion: [number, number, number, number]; // x y z w
}

export interface Visual {
  name: string;
  shape: 'box' | 'cylinder' | 'sphere' | 'capsule' | 'ellipsoid' | 'plane' | 'mesh';
  pose: Pose;
  size: number[];
  mesh: string | null; // file URI when the mesh resolves
  meshUri: string | null;
  textures?: Record<string, string> | null; // a COLLADA mesh's images: <init_from> as written -> file URI
  scale: [number, number, number];
  color: [number, number, number, number] | null;
}

export interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface FrameEntry {
  id: number;
  kind: 'world' | 'model' | 'link' | 'joint' | 'frame';
  name: string;
  parent: number | null;
  pose: Pose | null;
  attachedTo: string | null;
  problem: string | null;
  location?: { uri: string; range: LspRange };
  joint?: { type: string | null; parent: string | null; child: string | null; axes: number[][] };
  visuals?: Visual[];
}

export interface FramesResult {
  uri: string;
  version: number | null;
  root: { kind: string; name: string } | null;
  truncated: boolean;
  frames: FrameEntry[];
  problem?: string | null; // why there are no frames (root null)
}

export interface TreeNode {
  entry: FrameEntry;
  children: TreeNode[];
}

/** The entries as a tree (by `parent`), in the server's order; entries whose parent is unknown hang at the top. */
export function buildTree(frames: FrameEntry[]): TreeNode[] {
  const nodes = new Map<number, TreeNode>();
  for (const entry of frames) nodes.set(entry.id, { entry, children: [] });
  const roots: TreeNode[] = [];
  for (const entry of frames) {
    const node = nodes.get(entry.id)!;
    const parent = entry.parent === null ? undefined : nodes.get(entry.parent);
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

function num(v: number, decimals = 3): string {
  const s = v.toFixed(decimals).replace(/\.?0+$/, '');
  return s === '-0' || s === '' ? '0' : s;
}

/** `xyz 1 0 0.5 rpy 0 0 90°` (degrees) or radians. */
export function formatPose(pose: Pose | null, degrees = true): string {
  if (!pose) return 'pose does not resolve';
  const angles = pose.rpy.map((a) => num(degrees ? (a * 180) / Math.PI : a, degrees ? 2 : 4)).join(' ');
  return `xyz ${pose.xyz.map((v) => num(v)).join(' ')} rpy ${angles}${degrees ? '°' : ''}`;
}

/** The last segment of a scoped name: the tree shows nesting already. */
export function shortName(entry: FrameEntry): string {
  const parts = entry.name.split('::');
  return parts[parts.length - 1] || entry.name;
}

/** The tree item's description: the resolved pose and, when it differs from the frame itself, the link it moves with. */
export function describe(entry: FrameEntry, degrees = true): string {
  const pose = formatPose(entry.pose, degrees);
  if (entry.kind === 'world') return '';
  if (entry.attachedTo && entry.attachedTo !== entry.name) return `${pose} · on ${entry.attachedTo}`;
  if (!entry.attachedTo && entry.kind !== 'link' && entry.problem) return `${pose} · not attached`;
  return pose;
}

/** Plain-text tooltip lines. */
export function tooltip(entry: FrameEntry, rootLabel: string): string {
  const lines = [`${entry.kind} ${entry.name}`];
  if (entry.pose) {
    lines.push(`relative to ${rootLabel}:`);
    lines.push(`  xyz ${entry.pose.xyz.map((v) => num(v, 6)).join(' ')}`);
    lines.push(`  rpy ${entry.pose.rpy.map((v) => num(v, 6)).join(' ')} rad`);
  }
  if (entry.attachedTo) lines.push(`attached to link ${entry.attachedTo}`);
  if (entry.problem) lines.push(entry.problem);
  if (entry.joint) {
    const j = entry.joint;
    lines.push(`${j.type ?? 'joint'}: ${j.parent ?? '?'} → ${j.child ?? '?'}`);
    for (const a of j.axes) lines.push(`axis ${a.map((v) => num(v)).join(' ')}`);
  }
  return lines.join('\n');
}

/** The entry declared at (or enclosing) a line of the document `uri` (for following the cursor). */
export function entryAtLine(frames: FrameEntry[], uri: string, line: number): FrameEntry | undefined {
  let best: FrameEntry | undefined;
  for (const f of frames) {
    const loc = f.location;
    if (!loc || loc.uri !== uri) continue;
    if (loc.range.start.line <= line && (!best || loc.range.start.line >= best.location!.range.start.line)) best = f;
  }
  return best;
}
