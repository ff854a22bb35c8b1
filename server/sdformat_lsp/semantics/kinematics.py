"""Forward kinematics of a document's joint tree: where every link goes when its joints move.

A viewer with joint sliders asks the server for the poses of every frame
with some joints moved (``sdformat/frames`` with ``jointPositions``). This
module holds what that needs below the features: the facts of a joint that
decide how it moves (its type, axes, limits, mimic relation and screw pitch,
read from the SDFormat ``<joint>`` or the URDF ``<joint>`` as written), and
the math that turns joint values into motions of the links, in the frame
the rest poses are expressed in. No graph and no protocol here: the feature
layer resolves the parent and child links and the axes, and passes them in.

The motion of a joint is expressed about its frame at rest, so that the
moved pose of a child link is ``delta(parent) * T_joint(q) * X_child_at_rest``
where ``T_joint(q) = X_joint * M(q) * X_joint^-1`` and ``delta(parent)`` is
the motion of the parent link (identity for the world and for links that are
no joint's child). Two-axis joints turn about ``<axis>`` (on the parent's
side) and then about ``<axis2>`` (on the child's side); a screw advances
``screw_thread_pitch`` metres per turn (libsdformat's ``Joint``, which reads
the deprecated ``thread_pitch`` as ``-2π / thread_pitch``); ball, fixed and
the other types stay at rest. A mimic follower takes
``multiplier * (leader - reference) + offset`` (SDFormat 1.11's ``<mimic>``;
URDF's ``<mimic>`` has no reference).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from ..model.transform import Transform, Vec, rotate
from ..xml import XmlElement

# SDFormat's defaults for <limit> (spec joint.sdf): unbounded position, no effort or velocity limit
UNBOUNDED = 1e16
MOVABLE = ("revolute", "continuous", "prismatic", "screw", "revolute2", "universal")
TWO_AXES = ("revolute2", "universal")


@dataclass(frozen=True, slots=True)
class Limit:
    """An axis's ``<limit>``: position bounds (radians or metres), effort and velocity (-1: none)."""

    lower: float = -UNBOUNDED
    upper: float = UNBOUNDED
    effort: float = -1.0
    velocity: float = -1.0


@dataclass(frozen=True, slots=True)
class Mimic:
    """The leader this axis follows: ``value = multiplier * (leader - reference) + offset``."""

    joint: str  # as written (a sibling joint's name)
    axis: int  # 0: the leader's <axis>, 1: its <axis2>
    multiplier: float = 1.0
    offset: float = 0.0
    reference: float = 0.0


@dataclass(frozen=True, slots=True)
class AxisFacts:
    """One axis as written: ``xyz`` (None: not a usable vector), the frame it is expressed in."""

    xyz: Vec | None
    expressed_in: str | None
    limit: Limit
    mimic: Mimic | None


@dataclass(frozen=True, slots=True)
class JointFacts:
    """What decides how a joint moves, read from its element."""

    type: str | None
    axes: tuple[AxisFacts, ...]  # one per axis the type has (two for revolute2 and universal)
    pitch: float = 1.0  # screw: metres per revolution, right-handed


@dataclass(frozen=True, slots=True)
class JointMotion:
    """A joint ready to be moved: everything in the frame the rest poses are in."""

    name: str
    type: str | None
    pose: Transform  # the joint frame at rest
    parent: Hashable | None  # the parent link's key (None: the world, or a body that never moves)
    child: Hashable | None  # the child link's key
    axes: tuple[Vec | None, ...]  # unit vectors at rest, None where an axis is unusable
    mimics: tuple[tuple[str, int, Mimic] | None, ...] = ()  # (leader's name, leader axis, relation) per axis
    pitch: float = 1.0


def _floats(text: str | None, n: int) -> tuple[float, ...] | None:
    if text is None:
        return None
    try:
        values = tuple(float(t) for t in text.split())
    except ValueError:
        return None
    if len(values) != n or not all(math.isfinite(v) for v in values):
        return None
    return values


def _float(text: str | None, default: float) -> float:
    got = _floats(text, 1)
    return got[0] if got is not None else default


def _child_float(el: XmlElement | None, tag: str, default: float) -> float:
    c = el.child(tag) if el is not None else None
    return _float(c.text, default) if c is not None else default


def _unit(v: tuple[float, ...] | None) -> Vec | None:
    if v is None:
        return None
    norm = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    if norm < 1e-12:
        return None
    return (v[0] / norm, v[1] / norm, v[2] / norm)


def axis_count(joint_type: str | None) -> int:
    if joint_type in TWO_AXES:
        return 2
    if joint_type in MOVABLE:
        return 1
    return 0


def sdf_joint_facts(el: XmlElement) -> JointFacts:
    """An SDFormat ``<joint>``: ``<axis>``/``<axis2>`` (``xyz`` defaults to 0 0 1), limits, mimics, pitch."""
    jtype = (el.get("type") or "").strip() or None
    axes: list[AxisFacts] = []
    for tag in ("axis", "axis2")[: axis_count(jtype)]:
        axis = el.child(tag)
        xyz_el = axis.child("xyz") if axis is not None else None
        xyz = _unit(_floats(xyz_el.text, 3)) if xyz_el is not None else (0.0, 0.0, 1.0)
        expressed = (xyz_el.get("expressed_in") or None) if xyz_el is not None else None
        limit_el = axis.child("limit") if axis is not None else None
        if jtype == "continuous":
            limit = Limit(
                -UNBOUNDED, UNBOUNDED, _child_float(limit_el, "effort", -1.0), _child_float(limit_el, "velocity", -1.0)
            )
        else:
            limit = Limit(
                _child_float(limit_el, "lower", -UNBOUNDED),
                _child_float(limit_el, "upper", UNBOUNDED),
                _child_float(limit_el, "effort", -1.0),
                _child_float(limit_el, "velocity", -1.0),
            )
        mimic_el = axis.child("mimic") if axis is not None else None
        mimic = None
        if mimic_el is not None and (mimic_el.get("joint") or "").strip():
            mimic = Mimic(
                (mimic_el.get("joint") or "").strip(),
                1 if (mimic_el.get("axis") or "axis").strip() == "axis2" else 0,
                _child_float(mimic_el, "multiplier", 1.0),
                _child_float(mimic_el, "offset", 0.0),
                _child_float(mimic_el, "reference", 0.0),
            )
        axes.append(AxisFacts(xyz, expressed, limit, mimic))
    pitch = 1.0
    if el.child("screw_thread_pitch") is not None:
        pitch = _child_float(el, "screw_thread_pitch", 1.0)
    elif el.child("thread_pitch") is not None:
        tp = _child_float(el, "thread_pitch", 0.0)
        pitch = -2 * math.pi / tp if tp != 0 else 1.0
    return JointFacts(jtype, tuple(axes), pitch)


def urdf_joint_facts(el: XmlElement) -> JointFacts:
    """A URDF ``<joint>`` as urdfdom reads it: ``<axis xyz>`` (default 1 0 0) in the joint frame,
    ``<limit lower upper effort velocity>`` (bounds 0 unless written; none for continuous), ``<mimic>``."""
    jtype = (el.get("type") or "").strip() or None
    if axis_count(jtype) == 0:
        return JointFacts(jtype, ())
    axis = el.child("axis")
    xyz = _unit(_floats(axis.get("xyz"), 3)) if axis is not None and axis.get("xyz") is not None else (1.0, 0.0, 0.0)
    limit_el = el.child("limit")
    effort = _float(limit_el.get("effort"), -1.0) if limit_el is not None else -1.0
    velocity = _float(limit_el.get("velocity"), -1.0) if limit_el is not None else -1.0
    if jtype == "continuous":
        limit = Limit(-UNBOUNDED, UNBOUNDED, effort, velocity)
    elif limit_el is not None:
        limit = Limit(_float(limit_el.get("lower"), 0.0), _float(limit_el.get("upper"), 0.0), effort, velocity)
    else:
        limit = Limit()
    mimic_el = el.child("mimic")
    mimic = None
    if mimic_el is not None and (mimic_el.get("joint") or "").strip():
        mimic = Mimic(
            (mimic_el.get("joint") or "").strip(),
            0,
            _float(mimic_el.get("multiplier"), 1.0),
            _float(mimic_el.get("offset"), 0.0),
        )
    return JointFacts(jtype, (AxisFacts(xyz, None, limit, mimic),))


def _about(point: Vec, axis: Vec, angle: float, slide: float) -> Transform:
    """The motion turning by ``angle`` about the line through ``point`` along ``axis``, then sliding ``slide`` along it."""
    h = angle / 2.0
    s = math.sin(h)
    q = (math.cos(h), axis[0] * s, axis[1] * s, axis[2] * s)
    r = rotate(q, point)
    p = (point[0] - r[0] + axis[0] * slide, point[1] - r[1] + axis[1] * slide, point[2] - r[2] + axis[2] * slide)
    return Transform(p, q)


def joint_transform(joint: JointMotion, values: Sequence[float]) -> Transform:
    """``T_joint(q)``: the motion of the child side about the joint's rest frame."""
    t = joint.type
    p = joint.pose.p
    v = list(values) + [0.0] * (2 - len(values))
    a0 = joint.axes[0] if joint.axes else None
    if t in ("revolute", "continuous") and a0 is not None:
        return _about(p, a0, v[0], 0.0)
    if t == "prismatic" and a0 is not None:
        return _about(p, a0, 0.0, v[0])
    if t == "screw" and a0 is not None:
        return _about(p, a0, v[0], v[0] * joint.pitch / (2 * math.pi))
    if t in TWO_AXES:
        out = Transform()
        if a0 is not None:
            out = _about(p, a0, v[0], 0.0)
        a1 = joint.axes[1] if len(joint.axes) > 1 else None
        if a1 is not None:
            out = out * _about(p, a1, v[1], 0.0)
        return out
    return Transform()


def joint_values(joints: Sequence[JointMotion], given: Mapping[str, object]) -> dict[str, tuple[float, ...]]:
    """Each joint's values: those given (a number, or a list for two axes; 0 otherwise), mimic
    followers computed from their leaders (chains followed, a cycle of mimics left at the given values)."""
    by_name = {j.name: j for j in joints}
    raw: dict[str, list[float]] = {}
    for j in joints:
        n = axis_count(j.type)
        got = given.get(j.name)
        values = [0.0] * n
        if isinstance(got, (int, float)) and not isinstance(got, bool):
            got = [got]
        if isinstance(got, (list, tuple)):
            for i, x in enumerate(got[:n]):
                if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x):
                    values[i] = float(x)
        raw[j.name] = values

    def mimic(key: tuple[str, int]) -> tuple[tuple[str, int], Mimic] | None:
        j = by_name[key[0]]
        m = j.mimics[key[1]] if key[1] < len(j.mimics) else None
        if m is None or m[0] not in by_name or m[1] >= len(raw[m[0]]):
            return None
        return (m[0], m[1]), m[2]

    resolved: dict[tuple[str, int], float] = {}
    for name, vals in raw.items():
        for i in range(len(vals)):
            chain: list[tuple[str, int]] = []
            on_chain: set[tuple[str, int]] = set()
            cur = (name, i)
            while cur not in resolved:
                if cur in on_chain:  # a cycle of mimics: every member keeps its given value
                    for k in chain:
                        resolved[k] = raw[k[0]][k[1]]
                    chain = []
                    break
                m = mimic(cur)
                if m is None:
                    resolved[cur] = raw[cur[0]][cur[1]]
                    break
                chain.append(cur)
                on_chain.add(cur)
                cur = m[0]
            for k in reversed(chain):
                m = mimic(k)
                assert m is not None
                (leader, rel) = m
                resolved[k] = rel.multiplier * (resolved[leader] - rel.reference) + rel.offset
    out = {name: [resolved[(name, i)] for i in range(len(vals))] for name, vals in raw.items()}
    return {name: tuple(v) for name, v in out.items()}


def body_motions(joints: Sequence[JointMotion], values: Mapping[str, Sequence[float]]) -> dict[Hashable, Transform]:
    """``delta(body)`` for every joint's child: its moved pose is ``delta * pose at rest``.

    A body that is the child of several joints (a closed loop) follows the first of them in
    document order; bodies on a cycle of joints with no way to the world stay at rest.
    """
    first: dict[Hashable, JointMotion] = {}
    for j in joints:
        if j.child is not None and j.child not in first and j.child != j.parent:
            first[j.child] = j
    deltas: dict[Hashable, Transform] = {}
    for start in first:
        if start in deltas:
            continue
        chain: list[Hashable] = []
        seen: set[Hashable] = set()
        cur: Hashable | None = start
        while cur is not None and cur in first and cur not in deltas and cur not in seen:
            seen.add(cur)
            chain.append(cur)
            cur = first[cur].parent
        base = Transform() if cur is None or cur in seen or cur not in deltas else deltas[cur]
        if cur is not None and cur in seen:  # a loop of joints: nothing anchors it
            for body in chain:
                deltas[body] = Transform()
            continue
        for body in reversed(chain):
            j = first[body]
            base = base * joint_transform(j, values.get(j.name, ()))
            deltas[body] = base
    return deltas


__all__ = [
    "AxisFacts",
    "JointFacts",
    "JointMotion",
    "Limit",
    "Mimic",
    "MOVABLE",
    "UNBOUNDED",
    "axis_count",
    "body_motions",
    "joint_transform",
    "joint_values",
    "sdf_joint_facts",
    "urdf_joint_facts",
]
