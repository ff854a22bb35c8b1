"""urdfdom's reading of one ``<joint>``: what is wrong is reported, the joint still connects its links."""

from __future__ import annotations

from typing import Protocol

from ...diagnostics import Related
from ...model import NO_POSE, PoseSpec, Ref
from ...text import Span
from ...xml import XmlAttribute, XmlElement
from .model import UJoint
from .values import DUPLICATE_NAME, JOINT_TYPES, PARSING_ERROR


class JointReader(Protocol):
    """What reading a joint asks of the reader of the whole robot (``reader.Reader``), which calls
    :func:`read_joint`: declared here so that this module does not import the reader back."""

    joints: dict[str, UJoint]
    unconnected: bool

    def error(self, message: str, span: Span, kind: str, code: str = PARSING_ERROR, **kw) -> None: ...

    def numbers_ok(self, el: XmlElement, attrs: tuple[str, ...], what: str) -> bool: ...

    def vector(self, el: XmlElement, name: str, what: str, count: int = 3) -> tuple[float, ...] | None: ...

    def origin(self, owner: XmlElement, what: str) -> PoseSpec | None: ...

    def claim(self, joint_el: XmlElement) -> None: ...


def read_joint(rd: JointReader, el: XmlElement) -> None:
    a = el.attr("name")
    if a is None:
        rd.error('a <joint> needs a name attribute: add name="..."', el.tag_span, "joint_name")
        rd.claim(el)
        return
    name = a.value
    what = f"joint '{name}'"
    if name in rd.joints:
        other = rd.joints[name]
        rd.error(
            f"joint '{name}' is defined twice: joint names must be unique",
            a.value_span,
            "joint_duplicate",
            DUPLICATE_NAME,
            related=(Related(other.name_span, f"the other joint '{name}'"),),
        )
        rd.claim(el)
        return
    # what is wrong inside a joint is reported, but the joint still connects its links
    origin = rd.origin(el, what) or NO_POSE
    t = el.attr("type")
    jtype: str | None = None
    if t is None:
        rd.error(f"{what} needs a type attribute: one of {', '.join(JOINT_TYPES)}", a.value_span, "joint_type")
    elif t.value not in JOINT_TYPES:
        rd.error(
            f"{what} has an unknown type '{t.value}': use one of {', '.join(JOINT_TYPES)}", t.value_span, "joint_type"
        )
    else:
        jtype = t.value
    if jtype not in ("floating", "fixed"):
        axis = el.child("axis")
        if axis is not None and axis.attr("xyz") is not None:
            rd.vector(axis, "xyz", f"the axis of {what}")
    limit = el.child("limit")
    if limit is not None:
        rd.numbers_ok(limit, ("lower", "upper", "effort", "velocity"), f"the limits of {what}")
        for need in ("effort", "velocity"):
            if limit.attr(need) is None:
                rd.error(f'the <limit> of {what} needs {need}="..."', limit.tag_span, "limit")
    elif jtype in ("revolute", "prismatic") and t is not None:
        rd.error(
            f'{what} is {jtype} and needs a <limit effort="..." velocity="..."/> (lower and upper default to 0)',
            t.value_span,
            "limit",
        )
    safety = el.child("safety_controller")
    if safety is not None:
        rd.numbers_ok(
            safety,
            ("soft_lower_limit", "soft_upper_limit", "k_position", "k_velocity"),
            f"the safety controller of {what}",
        )
        if safety.attr("k_velocity") is None:
            rd.error(f'the <safety_controller> of {what} needs k_velocity="..."', safety.tag_span, "safety")
    calibration = el.child("calibration")
    if calibration is not None:
        rd.numbers_ok(calibration, ("rising", "falling"), f"the calibration of {what}")
    mimic_ref = None
    mimic = el.child("mimic")
    if mimic is not None:
        rd.numbers_ok(mimic, ("multiplier", "offset"), f"the mimic of {what}")
        ma = mimic.attr("joint")
        if ma is None:
            rd.error(f'the <mimic> of {what} needs joint="..."', mimic.tag_span, "mimic")
        else:
            mimic_ref = Ref(ma.value, ma.value_span, "mimic", mimic)
    dynamics = el.child("dynamics")
    if dynamics is not None:
        rd.numbers_ok(dynamics, ("damping", "friction"), f"the dynamics of {what}")
        if dynamics.attr("damping") is None and dynamics.attr("friction") is None:
            rd.error(f"the <dynamics> of {what} has neither damping nor friction", dynamics.tag_span, "dynamics")
    ends: list[tuple[str, XmlAttribute, XmlElement]] = []
    for tag in ("parent", "child"):
        end = el.child(tag)
        la = end.attr("link") if end is not None else None
        if la is None or end is None:  # no end: no la
            rd.error(
                f'{what} needs <{tag} link="..."/> naming its {tag} link',
                end.tag_span if end is not None else a.value_span,
                "joint_link",
            )
            continue
        ends.append((la.value, la, end))
    if len(ends) != 2:
        rd.claim(el)
        rd.unconnected = True
        return
    (pname, pattr, pel), (cname, cattr, cel) = ends
    rd.joints[name] = UJoint(name, a.value_span, el, jtype, t, pname, pattr, pel, cname, cattr, cel, origin, mimic_ref)
