"""A ``description.Robot`` as URDF text.

Numbers are printed with the shortest text that reads back to the same
double (``repr``), so a pose written here and read again is the pose that
was computed, bit for bit; values within 1e-14 of zero are printed as 0
(rounding noise of the pose arithmetic, far below any tolerance).
"""

from __future__ import annotations

from xml.sax.saxutils import escape
from xml.sax.saxutils import quoteattr as _quoteattr

from ...model.transform import Transform
from .description import Geometry, Inertial, Part, Robot, RobotJoint, RobotLink

_ZERO = 1e-14


def quoteattr(text: str) -> str:
    """An attribute value in double quotes (names seldom need escaping: checked first, it is cheaper)."""
    if '"' in text or "&" in text or "<" in text or ">" in text or "\n" in text or "\t" in text or "\r" in text:
        return _quoteattr(text)
    return f'"{text}"'


def number(v: float) -> str:
    if abs(v) < _ZERO:
        return "0"
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    return repr(float(v))


def numbers(values) -> str:
    return " ".join(number(v) for v in values)


def _origin(t: Transform, indent: str) -> list[str]:
    xyz, rpy = numbers(t.p), numbers(t.rpy)
    if xyz == "0 0 0" and rpy == "0 0 0":
        return []
    return [f'{indent}<origin xyz="{xyz}" rpy="{rpy}"/>']


def _geometry(g: Geometry, indent: str) -> list[str]:
    if g.shape == "box":
        shape = f'<box size="{numbers(g.size)}"/>'
    elif g.shape == "cylinder":
        shape = f'<cylinder radius="{number(g.radius)}" length="{number(g.length)}"/>'
    elif g.shape == "sphere":
        shape = f'<sphere radius="{number(g.radius)}"/>'
    else:
        scale = f' scale="{numbers(g.scale)}"' if g.scale is not None else ""
        shape = f"<mesh filename={quoteattr(g.filename)}{scale}/>"
    return [f"{indent}<geometry>", f"{indent}  {shape}", f"{indent}</geometry>"]


def _part(tag: str, p: Part, indent: str) -> list[str]:
    name = f" name={quoteattr(p.name)}" if p.name else ""
    out = [f"{indent}<{tag}{name}>", *_origin(p.origin, indent + "  "), *_geometry(p.geometry, indent + "  ")]
    m = p.material
    if m is not None:
        out.append(f"{indent}  <material name={quoteattr(m.name)}>")
        if m.rgba is not None:
            out.append(f'{indent}    <color rgba="{numbers(m.rgba)}"/>')
        if m.texture is not None:
            out.append(f"{indent}    <texture filename={quoteattr(m.texture)}/>")
        out.append(f"{indent}  </material>")
    out.append(f"{indent}</{tag}>")
    return out


def _inertial(i: Inertial, indent: str) -> list[str]:
    ixx, ixy, ixz, iyy, iyz, izz = (number(v) for v in i.inertia)
    return [
        f"{indent}<inertial>",
        *_origin(i.origin, indent + "  "),
        f'{indent}  <mass value="{number(i.mass)}"/>',
        f'{indent}  <inertia ixx="{ixx}" ixy="{ixy}" ixz="{ixz}" iyy="{iyy}" iyz="{iyz}" izz="{izz}"/>',
        f"{indent}</inertial>",
    ]


def _link(link: RobotLink) -> list[str]:
    if link.inertial is None and not link.visuals and not link.collisions:
        return [f"  <link name={quoteattr(link.name)}/>"]
    out = [f"  <link name={quoteattr(link.name)}>"]
    if link.inertial is not None:
        out += _inertial(link.inertial, "    ")
    for v in link.visuals:
        out += _part("visual", v, "    ")
    for c in link.collisions:
        out += _part("collision", c, "    ")
    out.append("  </link>")
    return out


def _joint(j: RobotJoint) -> list[str]:
    out = [f"  <joint name={quoteattr(j.name)} type={quoteattr(j.type)}>"]
    out += _origin(j.origin, "    ")
    out.append(f"    <parent link={quoteattr(j.parent)}/>")
    out.append(f"    <child link={quoteattr(j.child)}/>")
    if j.axis is not None:
        out.append(f'    <axis xyz="{numbers(j.axis)}"/>')
    if j.limit is not None:
        lim = j.limit
        bounds = ""
        if lim.lower is not None:
            bounds += f' lower="{number(lim.lower)}"'
        if lim.upper is not None:
            bounds += f' upper="{number(lim.upper)}"'
        out.append(f'    <limit{bounds} effort="{number(lim.effort)}" velocity="{number(lim.velocity)}"/>')
    if j.damping is not None or j.friction is not None:
        attrs = ""
        if j.damping is not None:
            attrs += f' damping="{number(j.damping)}"'
        if j.friction is not None:
            attrs += f' friction="{number(j.friction)}"'
        out.append(f"    <dynamics{attrs}/>")
    if j.mimic is not None:
        m = j.mimic
        out.append(
            f'    <mimic joint={quoteattr(m.joint)} multiplier="{number(m.multiplier)}" offset="{number(m.offset)}"/>'
        )
    out.append("  </joint>")
    return out


def write(robot: Robot) -> str:
    out = ['<?xml version="1.0"?>']
    if robot.comment:
        out.append(f"<!-- {escape(robot.comment).replace('--', '- -')} -->")
    out.append(f"<robot name={quoteattr(robot.name)}>")
    for link in robot.links:
        out += _link(link)
    for joint in robot.joints:
        out += _joint(joint)
    for ext in robot.extensions:
        ref = f" reference={quoteattr(ext.reference)}" if ext.reference is not None else ""
        out.append(f"  <gazebo{ref}>")
        for body in ext.body:
            out += ["    " + line for line in body.splitlines()]
        out.append("  </gazebo>")
    out.append("</robot>")
    return "\n".join(out) + "\n"
