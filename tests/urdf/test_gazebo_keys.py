"""``convert --to sdf`` carries the keys of ``<gazebo reference>`` blocks as libsdformat does.

Friction and contact keys go into collisions, material scripts and visual
blobs into visuals, gravity, damping and self-collision into links, physics
keys into joints, lumped links' blocks into the link they go into, reaching
collisions and visuals by libsdformat's naming rules. Compared, element by
element, with the SDFormat libsdformat 12 makes of the same URDF
(``sdf_print``, built here; skips without libsdformat's development files).
"""

from __future__ import annotations

from pathlib import Path

import subprocess

from lxml import etree

from sdformat_lsp.convert import urdf_to_sdf
from sdformat_lsp.semantics import Options, analyze

FIX = Path(__file__).resolve().parent / "fixtures" / "gazebo_keys.urdf"
SKIP = {
    "/pose",
    "/geometry",
    "/inertial",
    "/collision",
    "/visual",
    "/sensor",
    "/parent",
    "/child",
    "/axis/xyz",
    "/axis/limit",
}


def _value(text: str) -> object:
    t = text.strip()
    if t in ("true", "1"):
        return True
    if t in ("false", "0"):
        return False
    try:
        return tuple(round(float(x), 12) for x in t.split())
    except ValueError:
        return t


def _leaves(el, prefix: str = "") -> dict[str, object]:
    """Every leaf under ``el`` (not in SKIP) as path -> value; empty elements are left out."""
    out: dict[str, object] = {}
    for c in el:
        path = f"{prefix}/{c.tag}" if isinstance(c.tag, str) else ""
        if not path or path in SKIP:
            continue
        if len(c):
            out.update(_leaves(c, path))
        elif (c.text or "").strip():
            out[path] = _value(c.text)
    return out


def _elements(text: str) -> dict[str, dict[str, object]]:
    """link, collision, visual and joint -> their keys (defaults libsdformat writes out included)."""
    model = etree.fromstring(text.encode()).find("model")
    out = {}
    for link in model.findall("link"):
        out[f"link {link.get('name')}"] = _leaves(link)
        for tag in ("collision", "visual"):
            for part in link.findall(tag):
                out[f"{tag} {part.get('name')}"] = _leaves(part)
    for joint in model.findall("joint"):
        keys = _leaves(joint)
        out[f"joint {joint.get('name')}"] = keys
    return out


def _default(value: object) -> bool:
    """What libsdformat writes out by itself: zeros (``<cfm>0.0</cfm>``, ``<spring_reference>0</spring_reference>``)."""
    return value is False or value == (0.0,)


def test_gazebo_keys_are_carried_as_libsdformat_carries_them(sdf_printer):
    ours = urdf_to_sdf(analyze(FIX.read_text(), str(FIX), Options()))
    assert ours.text is not None, ours.errors
    r = subprocess.run([sdf_printer, str(FIX)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    theirs, mine = _elements(r.stdout), _elements(ours.text)
    assert sorted(mine) == sorted(theirs)  # the same links, joints, and collisions and visuals by the same names
    for name in theirs:
        expected = {k: v for k, v in theirs[name].items() if not _default(v) or k in mine[name]}
        assert mine[name] == expected, name
    # the fixture reaches every kind of key
    assert mine["collision base_fixed_joint_lump__tool_collision_2"]["/surface/friction/ode/fdir1"] == (1.0, 0.0, 0.0)
    assert mine["collision base_collision"]["/surface/friction/ode/mu"] == (0.55,)  # the last block wins
    assert (
        "/surface/friction/ode/mu" not in mine["collision base_fixed_joint_lump__named_collision_1"]
    )  # libsdformat's naming rule
    assert mine["link base"]["/self_collide"] is False and mine["link arm"]["/gravity"] is True
    assert mine["joint rev"]["/physics/ode/limit/erp"] == (0.2,) and mine["joint wrist"]["/physics/ode/limit/erp"] == (
        0.3,
    )
    assert "'nothing'" in " ".join(ours.warnings)


def test_converted_keys_are_valid_sdformat():
    ours = urdf_to_sdf(analyze(FIX.read_text(), str(FIX), Options()))
    again = analyze(ours.text, "out.sdf", Options())
    assert not [d for d in again.diagnostics if d.is_error]
