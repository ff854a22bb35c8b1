"""Checks libsdformat's loaders make beyond the schema and the frame graphs.

A material script without a URI, a joint axis of zero length, an inertia no
physical body can have: each makes ``gz sdf --check`` fail, so each is an
error here, on the element that needs fixing.
"""

from __future__ import annotations

import math

from ...diagnostics import Diagnostic, Fix, error
from ...model.transform import symmetric_eigenvalues
from ...text import Span
from ...xml import XmlDocument, XmlElement
from ..schema.repeated_mistakes import REPEATS, collapse_repeats
from .same_text import SameText

_SHADER_TYPES = {"pixel", "vertex", "normal_map_object_space", "normal_map_tangent_space"}


def _floats(el: XmlElement | None) -> list[float] | None:
    if el is None:
        return None
    try:
        return [float(w) for w in el.text.split()]
    except ValueError:
        return None  # the schema check reports values that are not numbers


def _scalar(el: XmlElement | None, default: float) -> float | None:
    vals = _floats(el)
    if vals is None:
        return default if el is None else None
    return vals[0] if len(vals) == 1 else None


def _unset(text: str) -> bool:
    """Empty, or libsdformat's placeholder for 'no value given'."""
    return text.strip() in ("", "__default__")


CLASSIC_MATERIALS = (
    "file://media/materials/scripts/gazebo.material"  # gz-sim's ServerPrivate::kClassicMaterialScriptUri
)


def _material(el: XmlElement, out: list[Diagnostic], text: str) -> None:
    script = el.child("script")
    if script is not None:
        uri, name = script.child("uri"), script.child("name")
        written = script.text.strip()
        if not script.children and written and "<" not in written:
            out.append(_script_as_text(script, written, text))
            return
        if uri is None or _unset(uri.text):
            out.append(
                error(
                    "ELEMENT_INVALID",
                    "a material <script> needs a non-empty <uri> naming the material script file or folder",
                    script.tag_span,
                    data={REPEATS: True},
                )
            )
        if name is None or _unset(name.text):
            out.append(
                error(
                    "ELEMENT_MISSING",
                    "a material <script> needs a non-empty <name> naming the material in the script",
                    script.tag_span,
                    data={REPEATS: True},
                )
            )
    shader = el.child("shader")
    if shader is not None:
        a = shader.attr("type")
        kind = a.value.strip() if a is not None else "pixel"
        if a is not None and kind not in _SHADER_TYPES:  # (the default, "pixel", is one)
            out.append(
                error(
                    "ELEMENT_INVALID",
                    f"shader type '{kind}' is not supported: use one of {', '.join(sorted(_SHADER_TYPES))}",
                    a.value_span,
                )
            )
        elif kind.startswith("normal_map") and not (
            (normal_map := shader.child("normal_map")) is not None and normal_map.text.strip()
        ):
            out.append(
                error(
                    "ELEMENT_MISSING",
                    f"a '{kind}' shader needs a <normal_map> naming the normal map texture",
                    shader.tag_span,
                )
            )


def _script_as_text(script: XmlElement, written: str, text: str) -> Diagnostic:
    """``<script>Gazebo/WoodPallet</script>``, Gazebo classic's shorthand: one error (libsdformat's
    Material::Load reports the missing <uri> and the missing <name>, and gz-sim then stops), folded
    with every other use of the same name (repeats.py), with the fix."""
    fixed = f"<script><uri>{CLASSIC_MATERIALS}</uri><name>{written}</name></script>"
    message = (
        f"<script>{written}</script> names the material as text, but libsdformat reads a <script> only from its <uri> and "
        "<name> and refuses the file (gz sim stops on the errors); "
    )
    if written.startswith("Gazebo/"):
        message += (
            f"write {fixed}: gz-sim then takes the colours of {written} from its own copy of Gazebo classic's "
            "gazebo.material (it loads no Ogre script, so no texture)"
        )
    else:
        message += (
            "gz-sim loads no custom material script: give the material <ambient>, <diffuse> and <specular> colours "
            f"(or <pbr>) and remove the <script>; {fixed} keeps the file loading"
        )
    start = script.span
    fix = (
        Fix(f"Write <uri> and <name> for {written}", start, fixed)
        if text[start.start : start.end].startswith("<script")
        else None
    )
    return error("ELEMENT_INVALID", message, script.tag_span, fixes=(fix,) if fix else (), data={REPEATS: True})


def _axis(el: XmlElement, out: list[Diagnostic]) -> None:
    xyz = el.child("xyz")
    vals = _floats(xyz)
    if xyz is not None and vals is not None and len(vals) == 3 and math.sqrt(sum(v * v for v in vals)) == 0.0:
        out.append(
            error(
                "ELEMENT_INVALID",
                "a joint axis of length zero has no direction: give <xyz> a non-zero vector such as 0 0 1",
                xyz.text_span or xyz.tag_span,
            )
        )


def _inertial(link: XmlElement, inertial: XmlElement, out: list[Diagnostic], text: str = "") -> None:
    """A link's first <inertial>: what libsdformat refuses (a negative mass, impossible moments).
    What it reports depends on the <inertial> alone (the link's name only words the message)."""
    if (inertial.get("auto") or "").strip().lower() in ("true", "1"):
        return
    mass_el = inertial.child("mass")
    mass = _scalar(mass_el, 1.0)
    inertia = inertial.child("inertia")
    if inertia is None and mass is not None and mass >= 0:
        return  # the default inertia (identity) is valid for any mass
    names = ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")
    defaults = (1.0, 1.0, 1.0, 0.0, 0.0, 0.0)
    values = []
    for n, d in zip(names, defaults):
        v = _scalar(inertia.child(n) if inertia is not None else None, d)
        if v is None:
            return
        values.append(v)
    if mass is None:
        return
    ixx, iyy, izz, ixy, ixz, iyz = values
    where = mass_el.text_span if mass_el is not None and mass_el.text_span else inertial.tag_span
    name = link.get("name") or ""
    if mass < 0:
        out.append(
            error(
                "LINK_INERTIA_INVALID",
                f"link '{name}' has a negative mass ({mass:g}): mass must be zero or more",
                where,
            )
        )
        return
    moments = symmetric_eigenvalues([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    eps = 10 * 2.220446049250313e-16 * max(abs(x) for x in moments)
    a, b, c = moments
    if min(moments) < -eps or a + b + eps < c or b + c + eps < a or a + c + eps < b:
        span = inertia.tag_span if inertia is not None else inertial.tag_span
        why, fixes = _written_twice(inertia, names, text) if inertia is not None else ("", ())
        out.append(
            error(
                "LINK_INERTIA_INVALID",
                f"link '{name}' has an inertia no rigid body can have (principal moments {a:.6g}, {b:.6g}, {c:.6g} must be "
                "non-negative and each at most the sum of the other two)"
                + (why or ": check <ixx>..<izz> and the off-diagonal terms"),
                span,
                fixes=fixes,
            )
        )


def _written_twice(inertia: XmlElement, names: tuple[str, ...], text: str) -> tuple[str, tuple[Fix, ...]]:
    """Why the moments are what they are when a moment is written twice and another is missing (a copied
    line left unrenamed): libsdformat reads the first copy (read_once.py) and the default 1 for the missing
    one. The fix renames the second copy when that pairs them up."""
    counts: dict[str, list[XmlElement]] = {}
    for c in inertia.children:
        if c.tag in names:
            counts.setdefault(c.tag, []).append(c)
    twice = [n for n in names if len(counts.get(n, ())) > 1]
    missing = [n for n in names[:3] if n not in counts]
    if not twice:
        return "", ()
    said = ", ".join(f"<{n}>" for n in twice)
    why = f": {said} {'is' if len(twice) == 1 else 'are'} written twice (libsdformat reads the first copy)"
    if missing:
        why += f" and {', '.join(f'<{n}>' for n in missing)} {'is' if len(missing) == 1 else 'are'} missing (libsdformat takes the default 1)"
    fixes: tuple[Fix, ...] = ()
    if len(twice) == 1 and len(missing) == 1:
        second = counts[twice[0]][1]
        why += f"; the second <{twice[0]}> is probably the <{missing[0]}>"
        end = second.end_tag_span
        if end is not None and text[end.start : end.start + 2 + len(twice[0])] == f"</{twice[0]}":
            between = text[second.tag_span.end : end.start + 2]
            fixes = (
                Fix(
                    f"Rename the second <{twice[0]}> to <{missing[0]}>",
                    Span(second.tag_span.start, end.start + 2 + len(twice[0])),
                    f"{missing[0]}{between}{missing[0]}",
                ),
            )
    return why, fixes


# The sensor types libsdformat's Sensor class loads (src/Sensor.cc, main branch); any other type, or none,
# makes it refuse the file. Several are older names of the same sensor.
SENSOR_TYPES = frozenset(
    """air_pressure air_speed altimeter boundingbox boundingbox_camera camera contact custom depth depth_camera
    force_torque gps gpu_lidar gpu_ray imu lidar logical_camera magnetometer multicamera navsat ray rfid rfidtag
    rgbd rgbd_camera segmentation segmentation_camera sonar thermal thermal_camera wide_angle_camera
    wideanglecamera wireless_receiver wireless_transmitter""".split()
)


def _sensor(el: XmlElement, out: list[Diagnostic]) -> None:
    """A sensor of a link or joint, which libsdformat loads (elsewhere a sensor is not read)."""
    a = el.attr("type")
    if a is None:
        return  # the schema check reports the missing attribute
    kind = a.value.strip()
    if kind in SENSOR_TYPES or not kind:
        return  # an empty type: the schema check reports the missing value
    import difflib  # only when a type is wrong: not a cost of every start-up

    close = difflib.get_close_matches(kind, sorted(SENSOR_TYPES), n=1, cutoff=0.6)
    msg = f"sensor type '{kind}' is not one libsdformat knows, so it refuses the file"
    fixes: tuple[Fix, ...] = ()
    if close:
        msg += f"; did you mean '{close[0]}'?"
        fixes = (Fix(f"Change to '{close[0]}'", a.value_span, close[0]),)
    else:
        msg += '; a sensor of a simulator plugin is type="custom" (with the plugin\'s own type in gz:type)'
    out.append(error("ATTRIBUTE_INVALID", msg, a.value_span, fixes=fixes))


# The elements checked here; a walk also stops at a plugin (free-form) and a namespaced element.
CHECKED = frozenset({"material", "axis", "axis2", "link", "sensor"})
_SPECIAL = CHECKED | {"plugin"}


def check_domain(xml: XmlDocument) -> list[Diagnostic]:
    """What this module checks, in a walk of its own over the whole tree."""
    checks = DomainChecks(xml)
    if xml.root is not None:
        checks.walk(xml.root)
    return checks.result()


class DomainChecks:
    """The checks, element by element, for a walk of their own (:meth:`walk`) or for the schema
    check's walk, which calls :meth:`check` on each element it visits whose tag is in
    :data:`CHECKED` and :meth:`walk` on each subtree it does not go into (so that the tree is
    walked once; see schema/validation.py).

    Either way each element is checked once, so the diagnostics are the same; their order is
    that of :func:`check_domain`'s walk, which takes children last first: the elements by
    descending end offset, in a document with no XML problem (where elements nest strictly).
    ``in_order=False`` (the schema check's walk) notes the end of each element that reports
    something and :meth:`result` sorts by it.
    """

    __slots__ = ("out", "same", "clean_inertials", "_ends", "text")

    def __init__(self, xml: XmlDocument, in_order: bool = True) -> None:
        self.out: list[Diagnostic] = []
        self.text = xml.text
        self.same = SameText(xml)
        self.clean_inertials: set[str] = set()  # texts of <inertial>s that were found fine (checks/same_text.py)
        # (element end, len(out) before it) of each element that reported something
        self._ends: list[tuple[int, int]] | None = None if in_order else []

    def walk(self, top: XmlElement) -> None:
        """Check ``top`` and every element below it but those in plugins and namespaced ones."""
        check = self.check
        stack = [top]
        pop, extend = stack.pop, stack.extend
        while stack:  # every element: cheap for the 95% this phase does not check
            el = pop()
            tag = el.tag
            if tag in _SPECIAL:
                if tag == "plugin":
                    continue  # free-form
                check(el, tag)
            elif ":" in tag:
                continue  # namespaced: free-form
            if el.children:
                extend(el.children)

    def check(self, el: XmlElement, tag: str) -> None:
        """One element whose tag is in :data:`CHECKED`."""
        out = self.out
        before = len(out)
        if tag == "material":
            _material(el, out, self.text)
        elif tag == "link":
            inertial = el.child("inertial")
            if inertial is not None:
                key = self.same.key(inertial)
                if key is None or key not in self.clean_inertials:
                    found = len(out)
                    _inertial(el, inertial, out, self.text)
                    if key is not None and len(out) == found:
                        self.clean_inertials.add(key)
        elif tag == "sensor":
            if el.parent is not None and el.parent.tag in ("link", "joint"):
                _sensor(el, out)
        elif el.parent is not None and el.parent.tag == "joint":
            _axis(el, out)
        if self._ends is not None and len(out) > before:
            self._ends.append((el.end, before))

    def result(self) -> list[Diagnostic]:
        """The diagnostics, in :func:`check_domain`'s order."""
        out, ends = self.out, self._ends
        if not ends or not out:
            return collapse_repeats(out, frozenset())
        groups = []
        for i, (end, first) in enumerate(ends):
            last = ends[i + 1][1] if i + 1 < len(ends) else len(out)
            if last > first:
                groups.append((-end, first, last))
        groups.sort()  # by descending end; (first, last) never tie, as each element is checked once
        return collapse_repeats([d for _, first, last in groups for d in out[first:last]], frozenset())
