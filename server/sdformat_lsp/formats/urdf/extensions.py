"""Checks of ``<gazebo>`` extension blocks, as libsdformat 12 reads them.

* Keys libsdformat converts with ``std::stod``/``std::stoi`` (``mu1``,
  ``kp``, ``springStiffness``, ``maxContacts``...) must start with a number:
  otherwise the conversion throws and the file does not load.
* SDFormat elements copied into a link or joint (``<gravity>``,
  ``<self_collide>``...) are read as SDFormat: a boolean that is not one
  makes the element, the link and the model invalid.
* Every other element of a block is copied as SDFormat into the link, joint or
  model it refers to (into the collisions or visuals for ``<collision>`` and
  ``<visual>``), where libsdformat reads its values as it reads a ``.sdf``: a
  value the spec's type refuses (``<diffuse>220 210 175 1</diffuse>`` in a
  ``<light>``: colour components lie in [0, 1]) makes the file fail to load.
  Checked with the spec of the newest version, which libsdformat converts to.
* A joint or frame in a block without reference that names a link lumped away
  by fixed-joint reduction (or the fixed joint itself): libsdformat 12
  (Gazebo Fortress) leaves no frame of that name behind and refuses the file;
  newer libsdformat leaves frames for lumped links and joints, where such a
  name resolves. The file loads with the libsdformat this project follows
  (its main branch), so this is a warning (``URDF_LUMPED_REFERENCE``) that
  says how to load everywhere.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...diagnostics import warning
from ...spec import check_value, latest_version, schema_for
from .values import key_value

if TYPE_CHECKING:
    from .reader import Reader

LUMPED_REFERENCE = "URDF_LUMPED_REFERENCE"  # ours: refused by libsdformat 12, read by newer versions
_STOD = re.compile(r"\s*[+-]?(?:\d|\.\d|inf|nan|0x)", re.IGNORECASE)
_STOI = re.compile(r"\s*[+-]?\d")
NUMBER_KEYS = frozenset(
    "dampingFactor maxVel minDepth mu1 mu2 kp kd laserRetro springReference springStiffness stopCfm stopErp fudgeFactor".split()
)
INTEGER_KEYS = frozenset({"maxContacts"})
BOOLEAN_ELEMENTS = frozenset({"gravity", "self_collide", "kinematic", "enable_wind"})
_BOOL = frozenset({"true", "false", "1", "0"})
# The keys of a block libsdformat's URDF reader handles itself (parser_urdf.cc: each becomes a
# setting of the link, joint or its parts); everything else is copied as SDFormat.
HANDLED = frozenset(
    "material collision visual static turnGravityOff dampingFactor maxVel minDepth mu1 mu2 fdir1 kp kd selfCollide "
    "maxContacts laserRetro springReference springStiffness stopCfm stopErp fudgeFactor provideFeedback canonicalBody "
    "cfmDamping implicitSpringDamper disableFixedJointLumping preserveFixedJoint".split()
)


def check_extensions(rd: "Reader", lumped: dict[str, str]) -> None:
    """``lumped``: the name of every lumped link and lumped fixed joint -> the link it went into."""
    for ext in rd.robot.children_named("gazebo"):
        reference = ext.get("reference")
        for c in ext.children:
            if c.tag in NUMBER_KEYS or c.tag in INTEGER_KEYS:
                value = key_value(c)
                ok = (_STOD if c.tag in NUMBER_KEYS else _STOI).match(value)
                if not ok:
                    kind = "a number" if c.tag in NUMBER_KEYS else "an integer"
                    value_attr = c.attr("value")
                    span = value_attr.value_span if value_attr is not None else (c.text_span or c.tag_span)
                    rd.error(
                        f"<{c.tag}> must be {kind}, not '{value}': libsdformat cannot convert it and does not load the file",
                        span,
                        "extension_value",
                        "ELEMENT_INVALID",
                    )
            elif reference and c.tag in BOOLEAN_ELEMENTS and c.text.strip().lower() not in _BOOL:
                rd.error(
                    f"<{c.tag}> is an SDFormat boolean: write true or false, not '{c.text.strip()}' "
                    "(libsdformat copies it into the link and cannot read it)",
                    c.text_span or c.tag_span,
                    "extension_value",
                    "ELEMENT_INVALID",
                )
            elif not reference and c.tag in ("joint", "frame"):
                _lumped_references(rd, c, lumped)
        _copied_values(rd, ext, reference)


def _copied_values(rd: "Reader", ext, reference: str | None) -> None:
    """The values of what a block copies into SDFormat, checked as in a ``.sdf`` (see above)."""
    if not ext.children:
        return
    schema = schema_for(latest_version())
    if schema is None:
        return
    if not reference:
        target = "model"
    elif reference in rd.links:
        target = "link"
    elif reference in rd.joints:
        target = "joint"
    else:
        return  # a reference to nothing: reported by the reader
    home = schema.definition_named(target)
    if home is None:
        return
    stack = []
    for c in ext.children:
        if c.tag in ("collision", "visual") and target == "link":
            part = home.child(c.tag)
            if part is not None:
                stack += [(b, part.child(b.tag)) for b in c.children]
        elif c.tag not in HANDLED and not (target == "link" and c.tag in BOOLEAN_ELEMENTS):  # booleans: above
            stack.append((c, home.child(c.tag)))
    while stack:
        el, spec = stack.pop()
        if spec is None or spec.copy_data or el.tag == "plugin" or ":" in el.tag:
            continue  # unknown (libsdformat warns and leaves it out), or free-form
        for name, a in el.attributes.items():
            aspec = spec.attribute(name)
            problem = check_value(aspec.type, a.value) if aspec is not None and aspec.type and a.value.strip() else None
            if problem is not None:
                _bad_value(rd, f"{name} of <{el.tag}>", aspec.type, problem, a.value_span)  # type: ignore[union-attr]
        if spec.type and not el.children and el.text.strip():
            problem = check_value(spec.type, el.text)
            if problem is not None:
                _bad_value(rd, f"<{el.tag}>", spec.type, problem, el.text_span or el.tag_span)
        stack += [(ch, spec.child(ch.tag)) for ch in el.children]


def _bad_value(rd: "Reader", what: str, vtype: str, problem: str, span) -> None:
    rd.error(
        f"invalid value for {what} ({vtype}): {problem}; libsdformat reads what a <gazebo> block copies as SDFormat "
        "and does not load the file",
        span,
        "extension_value",
        "ELEMENT_INVALID",
    )


def _lumped_references(rd: "Reader", el, lumped: dict[str, str]) -> None:
    if el.tag == "joint":
        ends = [(el.child(t), t, f"JOINT_{t.upper()}_LINK_INVALID") for t in ("parent", "child")]
        refs = [(e, e.text.strip(), t, code) for e, t, code in ends if e is not None]
    else:
        a = el.attr("attached_to")
        refs = [(el, a.value, "attached_to", "FRAME_ATTACHED_TO_INVALID")] if a is not None else []
    for owner, name, role, code in refs:
        home = lumped.get(name)
        if home is None:
            continue
        span = owner.text_span if role != "attached_to" else owner.attr("attached_to").value_span
        what = f"{el.tag} '{el.get('name') or ''}'"
        rd.diagnostics.append(
            warning(
                LUMPED_REFERENCE,
                f"{what} names '{name}' as its {role.replace('_', ' ')}, which fixed-joint reduction lumps into link "
                f"'{home}': libsdformat 12 (Gazebo Fortress) finds no '{name}' and refuses the file ({code}); newer "
                f"libsdformat resolves it to the frame the lumped link leaves. Name '{home}' to load everywhere",
                span or owner.tag_span,
                data={"urdf": "lumped_reference", "suggestion": home, "libsdformat12": code},
            )
        )
