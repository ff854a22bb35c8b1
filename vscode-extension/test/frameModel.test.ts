// The frame tree's data: the server's `sdformat/frames` answer as a tree, labels and descriptions.

import { strict as assert } from 'node:assert';
import { describe as suite, it } from 'node:test';
import { buildTree, describe, entryAtLine, FrameEntry, formatPose, shortName, tooltip } from '../src/frameModel';

const quarter = { xyz: [1, 0, 0] as [number, number, number], rpy: [0, 0, Math.PI / 2] as [number, number, number], quaternion: [0, 0, Math.SQRT1_2, Math.SQRT1_2] as [number, number, number, number] };

function entry(id: number, kind: FrameEntry['kind'], name: string, parent: number | null, extra: Partial<FrameEntry> = {}): FrameEntry {
  return { id, kind, name, parent, pose: quarter, attachedTo: kind === 'link' ? name : null, problem: null, ...extra };
}

suite('frame model', () => {
  it('builds the tree from parent ids, in order', () => {
    const frames = [
      entry(0, 'model', 'rover', null),
      entry(1, 'link', 'chassis', 0),
      entry(2, 'model', 'arm', 0),
      entry(3, 'link', 'arm::upper', 2),
      entry(4, 'frame', 'tip', 99), // unknown parent: shown at the top rather than lost
    ];
    const roots = buildTree(frames);
    assert.deepEqual(roots.map((r) => r.entry.name), ['rover', 'tip']);
    assert.deepEqual(roots[0].children.map((c) => c.entry.name), ['chassis', 'arm']);
    assert.deepEqual(roots[0].children[1].children.map((c) => shortName(c.entry)), ['upper']);
  });

  it('formats poses in degrees or radians, and says when a pose does not resolve', () => {
    assert.equal(formatPose(quarter), 'xyz 1 0 0 rpy 0 0 90°');
    assert.equal(formatPose(quarter, false), 'xyz 1 0 0 rpy 0 0 1.5708');
    assert.equal(formatPose(null), 'pose does not resolve');
  });

  it('describes the attached link when it is another frame', () => {
    assert.equal(describe(entry(1, 'link', 'chassis', 0)), 'xyz 1 0 0 rpy 0 0 90°');
    assert.equal(describe(entry(5, 'frame', 'mount', 0, { attachedTo: 'chassis' })), 'xyz 1 0 0 rpy 0 0 90° · on chassis');
    assert.equal(describe(entry(6, 'frame', 'loose', 0, { problem: 'attached_to cycle' })), 'xyz 1 0 0 rpy 0 0 90° · not attached');
    const joint = entry(7, 'joint', 'axle', 0, { attachedTo: 'wheel', joint: { type: 'revolute', parent: 'chassis', child: 'wheel', axes: [[-1, 0, 0]] } });
    assert.match(tooltip(joint, '__model__ of rover'), /revolute: chassis → wheel\naxis -1 0 0/);
  });

  it('finds the frame declared at or above a line', () => {
    const loc = (line: number) => ({ uri: 'file:///a.sdf', range: { start: { line, character: 0 }, end: { line, character: 4 } } });
    const frames = [entry(0, 'model', 'm', null, { location: loc(2) }), entry(1, 'link', 'l', 0, { location: loc(5) })];
    assert.equal(entryAtLine(frames, 'file:///a.sdf', 7)?.name, 'l');
    assert.equal(entryAtLine(frames, 'file:///a.sdf', 3)?.name, 'm');
    assert.equal(entryAtLine(frames, 'file:///b.sdf', 7), undefined);
  });
});
