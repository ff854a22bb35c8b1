#!/usr/bin/env python3
"""Read the plugins' sources and write the catalogue of their parameters.

Like ``generate_spec.py`` for the schema, this turns upstream sources into a
table the package reads (``server/sdformat_lsp/plugins/data/catalogue.json``):
only facts (names, types, defaults, repetition, required, what a value
names), never upstream prose. It reads bare git mirrors (the ``fetch`` tool
puts them under ``/work/.mirror/owner+name/repo``):

* gazebosim/gz-sim: every system in ``src/systems/<dir>``; its library name
  from ``gz_add_system(<name> ...)`` (``gz-sim-<name>-system``), its plugin
  names from ``GZ_ADD_PLUGIN``/``GZ_ADD_PLUGIN_ALIAS``, its parameters from
  the calls on ``sdf::Element`` in its sources and from the ``System
  Parameters`` section of its header;
* gazebosim/gz-gui: the plugins in ``src/plugins`` (``<gui><plugin
  filename="MinimalScene">``), read through tinyxml2's ``FirstChildElement``;
* gazebo-classic's ``plugins/`` (``libLiftDragPlugin.so``), at release 11.10.2,
  read from Debian's packaging repository (``CLASSIC_MIRROR``: upstream's
  snapshot is over the fetch tool's size limit): the libraries its CMakeLists
  build, each read with the classes it inherits;
* ros-simulation/gazebo_ros_pkgs: ``gazebo_plugins`` of the ROS 1
  (``noetic-devel``) and ROS 2 (``ros2``) branches, whose libraries share
  file names: the lookup takes the union of both; a plugin built on a
  gazebo-classic plugin (``gazebo_ros_camera`` on ``CameraPlugin``) or on a
  class of its own package (``GazeboRosCameraUtils``) is read with it.

What the reading understands (``read_parameters``): ``X->Get<T>("p"[,
default])``, ``HasElement("p")``, ``FindElement("p")``, ``GetElement("p")``,
``GetElementImpl("p")``, ``GetNextElement("p")`` (the parameter repeats),
gazebo_ros' ``getParameter<T>(var, "p", default)`` and ``getJoint(parent,
"p", default)``; an element pointer assigned from ``FindElement("p")`` makes
the names read from it children of ``p``. A plugin whose sources read a
name that is not a literal (``GetElement(name)``, ``GetFirstElement()``, a
parameter passed on to code outside its sources) is *open*: its unknown
parameters are not reported. A parameter names a joint (link, model) when
its value reaches ``JointByName``/``GetJoint`` (``LinkByName``/``GetLink``,
``ModelByName``/``GetModel``) in the same sources, through assignments and
range loops of plain identifiers; it is required when the sources give up
without it (``if (!_sdf->HasElement("p")) { gzerr ...; return ...; }`` directly
in Configure/Load, a step or a helper they call; see ``_required``).

Run from the repository root: ``python scripts/generate_plugins.py``
(``--mirror DIR`` for another mirror root, ``--check`` to compare with the
committed table and fail when it is stale).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from sdformat_lsp.plugins.catalogue import class_key, key  # noqa: E402  (one spelling of a name, as the lookup reads it)

OUT = ROOT / "server" / "sdformat_lsp" / "plugins" / "data" / "catalogue.json"
MIRROR = Path("/work/.mirror")

# C++ types of Get<T> -> the spec's value types (spec/types.py checks them)
CPP_TYPES = {
    "double": "double",
    "float": "float",
    "int": "int",
    "int32_t": "int",
    "unsigned int": "unsigned int",
    "uint32_t": "unsigned int",
    "unsigned": "unsigned int",
    "uint64_t": "uint64_t",
    "size_t": "uint64_t",
    "bool": "bool",
    "std::string": "string",
    "string": "string",
    "math::Vector3d": "vector3",
    "gz::math::Vector3d": "vector3",
    "ignition::math::Vector3d": "vector3",
    "ignition::math::Vector3<double>": "vector3",
    "math::Pose3d": "pose",
    "gz::math::Pose3d": "pose",
    "ignition::math::Pose3d": "pose",
    "math::Color": "color",
    "gz::math::Color": "color",
    "ignition::math::Color": "color",
    "math::Vector2d": "vector2d",
    "gz::math::Vector2d": "vector2d",
    "ignition::math::Vector2d": "vector2d",
    "math::Quaterniond": "quaternion",
    "gz::math::Quaterniond": "quaternion",
    "ignition::math::Quaterniond": "quaternion",
    "math::Angle": "double",
    "gz::math::Angle": "double",
    "ignition::math::Angle": "double",
}
# how each C++ lookup reveals what a name is
ROLE_CALLS = (
    (re.compile(r"\b(?:JointByName|GetJoint)\s*\("), "joint"),
    (re.compile(r"\b(?:LinkByName|GetLink|GetChildLink)\s*\("), "link"),
    (re.compile(r"\b(?:ModelByName|GetModel|ModelByName)\s*\("), "model"),
)
ROLE_NAMES = (
    (re.compile(r"(^|_)joints?(_?names?)?$|(^|_)joint_?names?$|Joints?$|JointName$"), "joint"),
    (re.compile(r"(^|_)links?(_?names?)?$|Links?$|LinkName$|(^|_)body_?name$|bodyName$"), "link"),
    (re.compile(r"(^|_)model_?names?$|modelName$"), "model"),
)
TOPIC = re.compile(r"(^|_)topic(_name)?$|Topic(Name)?$")
# helpers of gazebo_ros that read fixed names from the element they are given: callee -> (name, type)
KNOWN_READERS = {
    "Get": (("ros", "other"),),  # gazebo_ros::Node::Get: <ros> (namespace, remapping, argument, parameter, qos)
    "SensorFrameID": (("frame_name", "string"),),  # gazebo_ros/src/utils.cpp
    "GetRobotNamespace": (("robotNamespace", "string"),),  # gazebo_plugins/gazebo_ros_utils.h (ROS 1)
}
# gazebo-classic's plugin interfaces, which read no parameter themselves
PLAIN_BASES = {"ModelPlugin", "WorldPlugin", "SensorPlugin", "VisualPlugin", "SystemPlugin", "GUIPlugin", "Plugin"}
URI = re.compile(r"(^|_)(uri|file|filename|path)$|(Uri|File|Path)$")


# ---------------------------------------------------------------- the reading


def strip_comments(text: str) -> str:
    """C++ text without comments, string literals kept, offsets kept (comments become spaces)."""
    out = []
    i, n = 0, len(text)
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    for m in pattern.finditer(text):
        out.append(text[i : m.start()])
        token = m.group()
        if token.startswith("/"):
            out.append(re.sub(r"[^\n]", " ", token))
        else:
            out.append(token)
        i = m.end()
    out.append(text[i:n])
    return "".join(out)


CALL = re.compile(
    r"(?P<recv>[A-Za-z_][\w.>\-]*?)\s*(?:->|\.)\s*"
    r"(?P<meth>Get|HasElement|FindElement|GetElement|GetElementImpl|GetNextElement|GetFirstElement)\s*"
    r"(?:<\s*(?P<type>[\w:<>\s]+?)\s*>)?\s*\(\s*(?P<args>[^;{}]*?)\)"
)
ROS1_PARAM = re.compile(
    r"\bgetParameter(?:Boolean)?\s*(?:<\s*(?P<type>[\w:<>\s]+?)\s*>)?\s*\(\s*[\w.>\-\[\]]+\s*,\s*\"(?P<name>\w+)\"\s*(?:,\s*(?P<default>[^;]*?))?\)\s*;"
)
ROS1_JOINT = re.compile(r"\bgetJoint\s*\(\s*[\w.>\-]+\s*,\s*\"(?P<name>\w+)\"")
STRING = re.compile(r'^"((?:\\.|[^"\\])*)"$')
LITERAL = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFuUlL]*$|^(true|false)$")
ASSIGNED = re.compile(
    r"(?:auto|sdf::ElementPtr|sdf::ElementConstPtr|ElementPtr|const\s+auto|std::shared_ptr<[^>]*>)?\s*&?\s*(?P<var>[A-Za-z_]\w*)\s*=\s*$"
)


def _split_args(args: str) -> list[str]:
    parts, depth, cur = [], 0, []
    for ch in args:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def _default(text: str | None) -> str | None:
    if text is None:
        return None
    text = text.strip()
    m = STRING.match(text)
    if m:
        return m.group(1)
    if LITERAL.match(text):
        return re.sub(r"(?<=\d)[fFuUlL]+$", "", text)
    m = re.match(r"^(?:[\w:]*::)?(?:Vector3d?|Vector3<double>|Pose3d|Color|Vector2d)\s*\(([-+\d.,\s eE]*)\)$", text)
    if m:
        return " ".join(x.strip() for x in m.group(1).split(","))
    m = re.match(r"^(?:[\w:]*::)?(?:Vector3d|Pose3d|Vector2d)::Zero$", text)
    if m:
        return None
    return None


class Reading:
    """What one plugin's sources read: parameters, their facts, and whether the set is closed."""

    def __init__(self) -> None:
        self.params: dict[str, dict] = {}
        self.children: dict[str, set[str]] = {}
        self.open_reasons: list[str] = []
        self.targets: dict[str, set[str]] = {}  # identifier -> parameters whose value it holds

    def param(self, name: str) -> dict:
        return self.params.setdefault(
            name, {"type": None, "default": None, "repeats": False, "required": False, "names": None}
        )

    def typed(self, name: str, cpp: str | None) -> None:
        if cpp is None:
            return
        cpp = re.sub(r"\s+", " ", cpp.strip())
        kind = CPP_TYPES.get(cpp, "other")
        p = self.param(name)
        if p["type"] in (None, kind):
            p["type"] = kind
        elif "string" in (p["type"], kind):
            p["type"] = "string"  # read as text somewhere: any text is accepted there
        else:
            p["type"] = "other"


def _identifiers(expr: str) -> list[str]:
    return re.findall(r"[A-Za-z_]\w*", expr)


def read_parameters(
    sources: list[str], constants: dict[str, str] | None = None, paths: list[str] | None = None
) -> Reading:
    """The parameters the C++ ``sources`` (text of .cc/.hh/.cpp/.h files) read from a plugin element.

    With ``paths`` (the sources' paths, in the same order), each parameter records the line
    that first reads it (``at``: "path#Lnn"), which the hover links to."""
    r = Reading()
    texts = [strip_comments(s) for s in sources]
    consts = dict(constants or {})
    # where each text defines a constant: a name defined in several blocks ({ const std::string
    # elemName = "model_name"; ... } { const std::string elemName = "topic_name"; ... }, gazebo-classic's
    # ArrangePlugin) is, at a read, the definition nearest before it
    defined_at: list[list[tuple[int, str, str]]] = []
    for t in texts:
        defined_at.append([])
        for m in re.finditer(
            r"(?:constexpr|const)\s+(?:char\s+(\w+)\s*\[\s*\]|std::string(?:_view)?\s+(\w+)|auto\s+(\w+)|char\s*\*\s*const\s+(\w+))\s*(?:=|\{)\s*\"(\w+)\"",
            t,
        ):
            name = next(g for g in m.groups()[:4] if g)
            consts.setdefault(name, m.group(5))
            defined_at[-1].append((m.start(), name, m.group(5)))
        # a string variable given a literal once and never assigned again is that literal too
        # (gazebo-classic's BreakableJointPlugin: std::string paramName = "breaking_force_N")
        for m in re.finditer(r"(?<![\w:])(?:std::string|auto)\s+(\w+)\s*=\s*\"(\w+)\"\s*;", t):
            var = m.group(1)
            if (
                var not in consts
                and not any(
                    re.search(r"(?<![\w.>])" + var + r"\s*(?:=(?!=)|\+=)", other)
                    for other in (t[: m.start()], t[m.end() :])
                )
                and not any(re.search(r"\b" + var + r"\s*(?:=(?!=)|\+=)", o) for o in texts if o is not t)
            ):
                consts[var] = m.group(2)

    def constant(ti: int, at: int, name: str) -> str | None:
        nearest = [value for pos, n, value in defined_at[ti] if n == name and pos < at]
        return nearest[-1] if nearest else consts.get(name)

    # element pointer variable -> the parameter it points to ("p"), or the child of one ("p/c")
    var_elem: dict[str, str] = {}
    for ti, t in enumerate(texts):
        for m in CALL.finditer(t):
            meth, recv, args = m.group("meth"), m.group("recv"), _split_args(m.group("args"))
            recv_var = re.split(r"->|\.", recv)[-1]
            parent = var_elem.get(recv_var)
            if parent is not None and "/" in parent:
                # a read on a parameter's child (its value, its siblings, its own children); an element
                # taken from it is a descendant too
                a = ASSIGNED.search(t[max(0, m.start() - 80) : m.start()])
                if a and meth in ("FindElement", "GetElement", "GetElementImpl"):
                    var_elem[a.group("var")] = f"{parent}/*"
                continue
            if meth == "GetFirstElement" or (meth == "GetNextElement" and not args):
                if recv_var in var_elem:
                    # walks the children of one parameter (<graded_buoyancy>): that parameter's children
                    # are open, the plugin's own parameters are not
                    r.param(var_elem[recv_var])["open_children"] = True
                    continue
                if re.search(r"!\s*[\w\->.]*$", t[max(0, m.start() - 40) : m.start()]):
                    continue  # `if (!_sdf->GetFirstElement())`: a test for emptiness, not a walk
                if recv_var.lstrip("_") in (
                    "sdf",
                    "sdfClone",
                    "sdfPtr",
                    "sdf_",
                    "elem",
                    "element",
                ):
                    r.open_reasons.append(f"{meth}() walks the children")
                continue
            if meth == "Get" and not args:
                # the value of an element pointer: sdfElem->Get<std::string>()
                if parent is not None:
                    r.typed(parent, m.group("type"))
                    _note_target(r, t, m.start(), parent)
                continue
            if not args:
                continue
            first = args[0]
            lit = STRING.match(first)
            if lit:
                names = [(lit.group(1), args[1] if len(args) > 1 else None)]
            elif constant(ti, m.start(), first) is not None:
                names = [(constant(ti, m.start(), first) or "", args[1] if len(args) > 1 else None)]
            else:
                if meth != "Get" or m.group("type"):
                    # Get("x") with a variable key, GetElement(name): the names are decided at run time,
                    # unless the key is a parameter of a helper every caller gives a literal
                    # (SdfParamDouble(_sdf, "air_density", 1.225)): then those literals are the names
                    passed = _helper_literals(texts, t, m.start(), first, args[1] if len(args) > 1 else None, recv_var)
                    if passed is None:
                        if re.match(r"^[A-Za-z_][\w.>\-]*$", first) and recv_var not in ("msg", "_msg"):
                            r.open_reasons.append(f"{meth}({first})")
                        continue
                    for name, default_text, element in passed:
                        # the helper reads from the element its caller passes: the plugin's own, or a parameter's
                        holder = re.split(r"->|\.", element.strip())[-1] if element else recv_var
                        if holder in var_elem:
                            owner: str | None = var_elem[holder]
                        elif re.fullmatch(r"\*?_?sdf\w*(?:->Clone\(\))?", (element or recv_var).strip()):
                            owner = None
                        else:
                            continue  # an element we cannot place: neither the plugin's nor a known parameter's
                        _record(r, t, m, meth, name, default_text, owner, var_elem, paths[ti] if paths else None)
                    continue
                else:
                    continue
            for name, default_text in names:
                _record(r, t, m, meth, name, default_text, parent, var_elem, paths[ti] if paths else None)
        for m in ROS1_PARAM.finditer(t):
            name = m.group("name")
            if paths and "at" not in r.param(name):
                r.param(name)["at"] = f"{paths[ti]}#L{t.count(chr(10), 0, m.start()) + 1}"
            r.typed(name, m.group("type") or ("bool" if "Boolean" in m.group(0)[:25] else None))
            p = r.param(name)
            if p["default"] is None:
                p["default"] = _default(m.group("default"))
        for m in ROS1_JOINT.finditer(t):
            p = r.param(m.group("name"))
            if paths and "at" not in p:
                p["at"] = f"{paths[ti]}#L{t.count(chr(10), 0, m.start()) + 1}"
            r.typed(m.group("name"), "std::string")
            p["names"] = "joint"
    _required(r, texts)
    _passed_on(r, texts)
    _roles(r, texts)
    _required_by_use(r, texts)
    return r


def _record(
    r: Reading,
    t: str,
    m: re.Match,
    meth: str,
    name: str,
    default_text: str | None,
    parent: str | None,
    var_elem: dict[str, str],
    path: str | None,
) -> None:
    """One read of the parameter ``name`` by the call ``m`` in the text ``t``."""
    if not re.match(r"^[A-Za-z_][\w\-:]*$", name):
        return
    if parent is not None and parent != name:
        r.children.setdefault(parent, set()).add(name)
        a = ASSIGNED.search(t[max(0, m.start() - 80) : m.start()])
        if a and meth != "Get":
            var_elem[a.group("var")] = f"{parent}/{name}"  # the child's element: what is read on it is its own
        return
    p = r.param(name)
    if path is not None and "at" not in p:
        p["at"] = f"{path}#L{t.count(chr(10), 0, m.start()) + 1}"
    if meth == "Get":
        r.typed(name, m.group("type"))
        if default_text is not None and p["default"] is None:
            p["default"] = _default(default_text)
        _note_target(r, t, m.start(), name)
    if meth == "GetNextElement":
        p["repeats"] = True
    if meth in ("FindElement", "GetElement", "GetElementImpl", "GetNextElement"):
        before = t[max(0, m.start() - 80) : m.start()]
        a = ASSIGNED.search(before)
        if a:
            var_elem[a.group("var")] = name
        elif re.search(r"\bfor\s*\([^;]*?(?:auto|sdf::ElementPtr)\s+(\w+)\s*=\s*$", before):
            var_elem[re.search(r"(\w+)\s*=\s*$", before).group(1)] = name  # type: ignore[union-attr]


DEFINITION = re.compile(
    r"\b(?P<fn>[A-Za-z_]\w*)\s*\((?P<params>[^;{}()]*(?:\([^()]*\)[^;{}()]*)*)\)\s*(?:const\s*)?(?:override\s*)?\{"
)


def _param_names(params: str) -> list[str]:
    out = []
    for part in _split_args(params):
        part = part.split("=", 1)[0].strip()
        found = re.findall(r"[A-Za-z_]\w*", part)
        out.append(found[-1] if found else "")
    return out


def _helper_literals(
    texts: list[str], t: str, at: int, key: str, default: str | None, receiver: str
) -> list[tuple[str, str | None, str | None]] | None:
    """The names a helper reads when its key ``key`` is one of its own parameters and every call
    of the helper in the sources passes a string literal there (with the literal or value passed
    for ``default`` when that is a parameter too); None when a caller passes anything else."""
    defs = [d for d in DEFINITION.finditer(t, 0, at) if key in _param_names(d.group("params"))]
    if not defs:
        return None
    d = defs[-1]
    if d.group("fn") in ("if", "while", "for", "switch", "catch"):
        return None
    params = _param_names(d.group("params"))
    k = params.index(key)
    dk = params.index(default) if default in params else None
    ek = params.index(receiver) if receiver in params else None
    out: list[tuple[str, str | None, str | None]] = []
    for text in texts:
        for call in re.finditer(r"\b" + re.escape(d.group("fn")) + r"\s*\(", text):
            if text is t and call.start() == d.start("fn"):
                continue
            close = _closing(text, call.end())
            after = text[close + 1 : close + 40]
            if re.match(r"\s*(?:const\s*)?(?:override\s*)?[{;]", after) and re.search(
                r"[\w:>&*]\s+$", text[max(0, call.start() - 60) : call.start()]
            ):
                continue  # a declaration or another definition, not a call
            args = _split_args(text[call.end() : close])
            if len(args) <= k:
                return None
            lit = STRING.match(args[k])
            if not lit:
                return None
            element = args[ek] if ek is not None and len(args) > ek else None
            out.append((lit.group(1), args[dk] if dk is not None and len(args) > dk else default, element))
    return out or None


def _note_target(r: Reading, text: str, start: int, name: str) -> None:
    """Remember the identifier a string parameter's value is stored in (for the role analysis)."""
    before = text[max(0, start - 160) : start]
    line = before.rsplit(";", 1)[-1].rsplit("{", 1)[-1].rsplit("}", 1)[-1]
    m = re.search(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*=\s*(?:[\w:<>]+\s*\()?\s*[\w\->.]*$", line)
    if m:
        r.targets.setdefault(m.group(1), set()).add(name)
    m = re.search(r"([A-Za-z_]\w*)\s*(?:\.|->)\s*(?:push_back|emplace_back|insert|emplace)\s*\(\s*[\w\->.]*$", line)
    if m:
        r.targets.setdefault(m.group(1), set()).add(name)
    m = re.search(r"([A-Za-z_]\w*)\s*\(\s*[\w\->.]*$", line)  # a call: the value passed straight on
    if m:
        r.targets.setdefault("(" + m.group(1), set()).add(name)


ENTRY = re.compile(r"::(Configure|Load)\s*\(")


def _body(text: str, open_brace: int) -> str:
    """The text between the brace at ``open_brace`` and its match."""
    depth, i = 1, open_brace + 1
    while i < len(text) and depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[open_brace + 1 : i - 1]


def _entry_bodies(text: str) -> list[str]:
    """The bodies of the plugin's Configure (gz-sim) or Load (gazebo-classic) in one source file."""
    bodies = []
    for m in ENTRY.finditer(text):
        close = _closing(text, m.end())
        brace = text.find("{", close)
        if brace != -1 and re.fullmatch(r"\s*(?:const\s*)?(?:override\s*)?", text[close + 1 : brace]):
            bodies.append(_body(text, brace))
    return bodies


# a message at error or warning level: the plugin says it cannot go on (DiffDrivePlugin's
# "missing <left_joint>" without a return is a complaint, not a refusal)
GIVE_UP_LOG = re.compile(
    r"\b(?:gzerr|gzwarn|ignerr|ignwarn|gzthrow|gzerror|ROS_FATAL\w*|ROS_ERROR\w*|ROS_WARN\w*|RCLCPP_(?:FATAL|ERROR|WARN)\w*)\b"
)
# the plugin's own element, as Configure/Load receives it or as the plugin keeps it
# (_sdf, sdfClone, this->sdf, this->dataPtr->sdf)
NOT_HAS = re.compile(r"!\s*(?:this\s*->\s*)?(?:\w+\s*->\s*)*_?sdf\w*\s*->\s*HasElement\s*\(\s*\"(\w+)\"\s*\)")
STEPS = ("Configure", "Load", "Init", "PreUpdate", "Update", "PostUpdate", "OnUpdate")


def _top_level_ifs(body: str) -> Iterator[tuple[str, str]]:
    """The ``if`` statements directly in a function body (not in a loop or another branch, not an
    ``else if``): (condition, what it does)."""
    depth = 0
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0 and body.startswith("if", i) and not (i and (body[i - 1].isalnum() or body[i - 1] == "_")):
            m = re.match(r"if\s*\(", body[i:])
            if m and not re.search(r"\belse\s*$", body[max(0, i - 12) : i]):
                close = _closing(body, i + m.end())
                rest = body[close + 1 :]
                lead = len(rest) - len(rest.lstrip())
                if rest.lstrip().startswith("{"):
                    then = _body(rest, lead)
                    skip = lead + len(then) + 2
                else:
                    then = rest[: rest.find(";") + 1]
                    skip = len(then)
                yield body[i + m.end() : close], then
                i = close + 1 + skip
                continue
        i += 1


def _required(r: Reading, texts: list[str]) -> None:
    """A parameter is required when the plugin refuses to work without it: a test of its absence
    on the plugin's own element directly in Configure/Load (or a step, or a function they call),
    with an error or warning and a return: ``if (!_sdf->HasElement("p")) { gzerr << ...; return; }``.
    ``if (!_sdf->HasElement("a") || !_sdf->HasElement("b"))`` requires both; with ``&&`` (one of
    them is enough) neither. A test inside a loop or a branch gives up on that part only."""
    bodies: list[tuple[str, bool]] = []  # (body, is Configure/Load or a step)
    called: set[str] = set()
    for t in texts:
        for d in DEFINITION.finditer(t):
            if d.group("fn") in STEPS:
                body = _body(t, d.end() - 1)
                bodies.append((body, True))
                called |= set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", body))
    called -= set(STEPS) | {"if", "for", "while", "switch", "return", "catch"}
    for t in texts:
        for d in DEFINITION.finditer(t):
            if d.group("fn") in called:
                # a helper the plugin's work goes through (EnvironmentPreload's ReadSdf), reading the
                # element the plugin keeps (this->sdf); an element it is given may be a parameter's
                # (LedPlugin's LedMode::fromSDF(_sdf) reads one <mode>)
                bodies.append((_body(t, d.end() - 1), False))
    for body, step in bodies:
        for cond, then in _top_level_ifs(body):
            terms = [re.sub(r"^\((.*)\)$", r"\1", c.strip()).strip() for c in re.split(r"\|\|", cond)]
            if "&&" in cond or not all(NOT_HAS.fullmatch(c) for c in terms):
                continue
            if not step and not all(re.match(r"!\s*this\s*->", c) for c in terms):
                continue
            flat = then
            while re.search(r"\{[^{}]*\}", flat):
                flat = re.sub(r"\{[^{}]*\}", " ", flat)  # what the test does itself, not in a nested block
            if not GIVE_UP_LOG.search(flat) or not re.search(r"\breturn\b", flat) or re.search(r"\bif\s*\(", flat):
                continue  # (FollowActor gives up without <animation> only when the actor has none)
            for c in terms:
                name = NOT_HAS.fullmatch(c).group(1)  # type: ignore[union-attr]
                if name in r.params:
                    r.params[name]["required"] = True


EMPTY_TEST = re.compile(
    r"\bif\s*\((?P<cond>[^;{}]*?)\)\s*(?:\{\s*(?:(?:gzerr|gzwarn|gzmsg|gzdbg|ignerr|ignwarn)\b[^;{}]*;\s*)*)?return\b"
)
EMPTY_TERM = re.compile(
    r"!\s*(?:this->)?(?P<a>[\w\->.]+?)\s*(?:\)|\|\||$)"
    r"|(?P<b>[\w\->.]+?)\s*\.\s*empty\s*\(\s*\)"
    r"|(?P<c>[\w\->.]+?)\s*==\s*(?:kNullEntity|nullptr|NULL)\b"
)


def _units(body: str) -> list[str]:
    """A function's body cut into scopes: each range loop with its body (a variable declared there
    is that loop's own: two loops' ``joint`` are two variables), and the rest."""
    units = []
    outer = body
    pos = 0
    while True:
        m = re.search(r"\bfor\s*\(\s*(?:const\s+)?[\w:<>]+\s*&?\s*\w+\s*:", outer[pos:])
        if not m:
            break
        start = pos + m.start()
        close = _closing(outer, pos + m.end())
        brace = outer.find("{", close)
        if brace == -1 or outer[close + 1 : brace].strip():
            pos = close + 1
            continue
        end = brace + len(_body(outer, brace)) + 2
        units.append(outer[start:end])
        outer = outer[:start] + " " * (end - start) + outer[end:]
        pos = end
    return [outer, *units]


def _required_by_use(r: Reading, texts: list[str]) -> None:
    """A parameter is also required when what its value becomes is tested for emptiness and the
    plugin gives up on it in ``Configure`` or an update step: DiffDrive keeps the joints found for its ``<left_joint>`` names and
    ``if (leftJoints.empty() || rightJoints.empty()) return;`` every step, so without
    ``<left_joint>`` the robot never moves. The value is followed through assignments,
    ``push_back`` and range loops of plain identifiers (the last member of ``this->dataPtr->x``)."""
    # identifiers declared in a function are that function's own (two loops' `name` are two
    # variables); members (this->dataPtr->leftJoints) and the rest are shared by the sources
    functions: list[str] = []
    steps: list[bool] = []
    for t in texts:
        for d in DEFINITION.finditer(t):
            for unit in _units(_body(t, d.end() - 1)):
                functions.append(unit)
                steps.append(d.group("fn") in ("Configure", "Load", "PreUpdate", "Update", "PostUpdate", "OnUpdate"))
    declared = re.compile(
        r"for\s*\(\s*(?:const\s+)?[\w:<>]+\s*&?\s*(\w+)\s*:"
        r"|(?:auto|Entity|std::string|int|double|bool|size_t|[\w:]+Ptr)\s*&?\s*(\w+)\s*(?:=|\{)"
    )

    def scoped(i: int, ident: str, local: set[str]) -> str:
        return f"{i}:{ident}" if ident in local else ident

    derived: dict[str, set[str]] = {}
    flows: list[tuple[str, list[str], bool]] = []  # (lhs, rhs identifiers, rhs looks an entity up by name)
    locals_of: list[set[str]] = []
    for i, t in enumerate(functions):
        local = {a or b for a, b in declared.findall(t)}
        locals_of.append(local)
        for ident, names in r.targets.items():
            if ident.startswith("("):
                continue
            found = {n for n in names if n in r.params and (ident not in local or f'"{n}"' in t)}
            if found:
                derived.setdefault(scoped(i, ident, local), set()).update(found)
        for m in re.finditer(r"(?<![=!<>+\-*/])\b([A-Za-z_][\w\->.]*?)\s*=(?!=)\s*([^;{}]*);", t):
            lookup = any(pattern.search(m.group(2)) for pattern, _ in ROLE_CALLS)
            lhs = re.split(r"->|\.", m.group(1))[-1]
            lhs = lhs if ("->" in m.group(1) or "." in m.group(1)) else scoped(i, lhs, local)
            flows.append((lhs, [scoped(i, x, local) for x in _identifiers(m.group(2))], lookup))
        for m in re.finditer(
            r"([A-Za-z_][\w\->.]*?)\s*\.\s*(?:push_back|emplace_back|insert|emplace)\s*\(([^;{}]*)\)\s*;", t
        ):
            lhs = re.split(r"->|\.", m.group(1))[-1]
            lhs = lhs if ("->" in m.group(1) or "." in m.group(1)) else scoped(i, lhs, local)
            flows.append((lhs, [scoped(i, x, local) for x in _identifiers(m.group(2))], False))
        for m in re.finditer(r"for\s*\(\s*(?:const\s+)?[\w:<>]+\s*&?\s*(\w+)\s*:\s*([\w\->.]+)\s*\)", t):
            src = m.group(2)
            last = _identifiers(src)[-1:]
            rhs = last if ("->" in src or "." in src) else [scoped(i, x, local) for x in last]
            flows.append((scoped(i, m.group(1), local), rhs, False))
    resolved: dict[str, set[str]] = {}  # identifier -> parameters whose named entity it holds
    for table, start in ((derived, None), (resolved, True)):
        changed = True
        while changed:
            changed = False
            for lhs, rhs, lookup in flows:
                found: set[str] = set()
                for x in rhs:
                    found |= table.get(x, set())
                    if start and lookup:
                        found |= derived.get(x, set())
                if found - table.get(lhs, set()):
                    table.setdefault(lhs, set()).update(found)
                    changed = True
    for scope, t in enumerate(functions):
        if not steps[scope]:
            continue  # a return in a helper (an odometry update) ends that helper's part only
        for m in EMPTY_TEST.finditer(t):
            cond = m.group("cond")
            if "&&" in cond or "HasElement" in cond:
                continue
            logged = bool(re.search(r"\b(?:gzerr|ignerr)\b", t[m.start() : m.end()]))
            for term in EMPTY_TERM.finditer(cond):
                written = term.group("a") or term.group("b") or term.group("c")
                ident = re.split(r"->|\.", written)[-1]
                if not ("->" in written or "." in written):
                    ident = scoped(scope, ident, locals_of[scope])
                # an error and a return on the value itself, or a return on the entity it named not found
                for name in (derived if logged else resolved).get(ident, ()):
                    p = r.params[name]
                    if (
                        p["default"] in (None, "")
                        and p["names"] in ("joint", "link", "model", "entity")
                        and not any(name in c for c in r.children.values())
                    ):
                        p["required"] = True


def _passed_on(r: Reading, texts: list[str]) -> None:
    """The plugin's element given to code outside its sources (a base class, a helper library,
    a Python module) may be read there for any name: the plugin is open."""
    defined = set()
    for t in texts:
        defined |= set(
            re.findall(r"(?:::|\b)(\w+)\s*\([^;{}()]*(?:\([^()]*\)[^;{}()]*)*\)\s*(?:const\s*)?(?:override\s*)?\{", t)
        )
    for t in texts:
        for entry in _entry_bodies(t):
            for m in re.finditer(r"([\w:]+)\s*(?:<[^<>;]*>)?\s*\(([^;{}]*?\b_?sdf\b[^;{}]*?)\)", entry):
                callee = m.group(1).split("::")[-1]
                args = _split_args(m.group(2))
                if not any(re.fullmatch(r"\*?_?sdf(->Clone\(\))?", a.strip()) for a in args):
                    continue
                if callee in KNOWN_READERS:
                    for name, kind in KNOWN_READERS[callee]:
                        r.param(name)["type"] = kind
                    continue
                if (
                    callee in defined
                    or re.fullmatch(r"[A-Z_]*ASSERT\w*|assert", callee)  # GZ_ASSERT(_sdf, "..."): a test, no read
                    or callee in ("if", "while", "for", "return", "Load", "Configure")
                    or callee[:1].islower()
                    and callee in ("static_cast", "const_pointer_cast", "std")
                ):
                    continue
                r.open_reasons.append(f"passes its element to {m.group(1)}")


def _roles(r: Reading, texts: list[str]) -> None:
    aliases: dict[str, set[str]] = {}
    for t in texts:
        for m in re.finditer(r"for\s*\(\s*(?:const\s+)?[\w:<>]+\s*&?\s*(\w+)\s*:\s*[\w\->.]*?(\w+)\s*\)", t):
            aliases.setdefault(m.group(1), set()).add(m.group(2))
        for m in re.finditer(r"(?:auto|std::string)\s*&?\s*(\w+)\s*=\s*[\w\->.]*?(\w+)\s*(?:\[[^\]]*\])?\s*;", t):
            aliases.setdefault(m.group(1), set()).add(m.group(2))

    def params_of(ident: str, seen: set[str] | None = None) -> set[str]:
        seen = seen or set()
        if ident in seen:
            return set()
        seen.add(ident)
        out = set(r.targets.get(ident, ()))
        for other in aliases.get(ident, ()):
            out |= params_of(other, seen)
        return out

    for t in texts:
        for pattern, role in ROLE_CALLS:
            for m in pattern.finditer(t):
                args = t[m.end() : t.find(")", m.end()) + 120]
                close = _closing(t, m.end())
                args = t[m.end() : close]
                found = set()
                for literal in re.findall(r"Get\s*<[^>]*>\s*\(\s*\"(\w+)\"", args):
                    found.add(literal)
                # the value of the parameter's element: GetJoint(_sdf->GetElement("left_joint")->Get<std::string>())
                for literal in re.findall(
                    r"(?:GetElement|FindElement)\s*\(\s*\"(\w+)\"\s*\)\s*->\s*Get\s*<[^>]*>\s*\(\s*\)", args
                ):
                    found.add(literal)
                for ident in _identifiers(re.sub(r"\"[^\"]*\"", "", args)):
                    found |= params_of(ident)
                for name in found:
                    if name in r.params and r.params[name]["names"] is None:
                        r.params[name]["names"] = role
        for m in re.finditer(r"\bentitiesFromScopedName\s*\(", t):
            close = _closing(t, m.end())
            first = _split_args(t[m.end() : close])[:1]
            for ident in _identifiers(first[0] if first else ""):
                for name in params_of(ident):
                    if name in r.params and r.params[name]["names"] is None:
                        for pattern, role in ROLE_NAMES:
                            if pattern.search(name):
                                r.params[name]["names"] = role
                                break
                        else:
                            r.params[name]["names"] = "entity"
    for name, p in r.params.items():
        if p["names"] is None and p["type"] in (None, "string"):
            if TOPIC.search(name):
                p["names"] = "topic"
            elif URI.search(name):
                p["names"] = "uri"


def _closing(text: str, start: int) -> int:
    depth, i = 1, start
    while i < len(text) and depth and i - start < 400:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return i - 1


DOC_SECTION = re.compile(r"#+\s*(?:System\s+)?Parameters\b|System parameters|\bParameters:?\s*$", re.I | re.M)


def read_header_doc(header: str) -> dict[str, dict]:
    """The parameters a header's ``System Parameters`` section lists: name -> {repeats, required}."""
    numbered = [(i + 1, ln) for i, ln in enumerate(header.splitlines()) if re.match(r"^\s*(///|\*|//)", ln)]
    lines = [re.sub(r"^\s*///?\s?|^\s*\*\s?", "", ln) for _, ln in numbered]
    doc = "\n".join(lines)
    m = DOC_SECTION.search(doc)
    if not m:
        return {}
    section = doc[m.end() :]
    end = re.search(r"\n#+\s|\n\s*\\(?:brief|code)|\n\s*(?:##\s*)?Example", section)
    if end:
        section = section[: end.start()]
    out: dict[str, dict] = {}
    items = re.split(r"\n\s*(?=[-*]\s|\* )", "\n" + section)
    for item in items:
        m = re.match(r"\s*[-*]\s*`?<([A-Za-z_][\w\-]*)>", item)
        if not m:
            continue
        body = item[m.end() :].lower()
        name = m.group(1)
        out[name] = {
            "repeats": bool(
                re.search(r"multiple times|more than once|repeat|one or more|can be specified multiple", body)
            ),
            "required": bool(
                re.search(
                    r"\brequired\b(?!\s+(?:if|when|only|for|by)\b)|must be (?:specified|set|provided|present)|must appear",
                    body,
                )
            )
            and not re.search(r"\bnot required\b|\boptional\b", body),
        }
    return out


DOC_ITEM = re.compile(r"\s*[-*]\s*`?<([A-Za-z_][\w\-]*)>")
# gz-gui's headers: "## Configuration" (or "## Parameters") with items "* \\<engine\\> : ...",
# "* `<topic_name>`: ..." or, unbulleted, "\\<topic\\> : ..."
GUI_DOC_SECTION = re.compile(r"#+\s*(?:Configuration|Parameters)\b", re.I)
GUI_DOC_ITEM = re.compile(r"\s*(?:[-*]\s*)?`?\\?<([A-Za-z_][\w\-]*)\\?>")


def header_doc_lines(
    header: str, path: str, names, section: re.Pattern = DOC_SECTION, item: re.Pattern = DOC_ITEM
) -> dict[str, str]:
    """Where the header's documentation lists each of ``names``: name -> "path#Lnn" (a link to
    upstream's own words for the hover, which quotes none of them)."""
    out: dict[str, str] = {}
    started = False
    for i, ln in enumerate(header.splitlines()):
        if not re.match(r"^\s*(///|\*|//)", ln):
            continue
        text = re.sub(r"^\s*///?\s?|^\s*\*\s?", "", ln)
        started = started or bool(section.search(text))
        m = item.match(text) if started else None
        if m and m.group(1) in names and m.group(1) not in out:
            out[m.group(1)] = f"{path}#L{i + 1}"
    return out


# ---------------------------------------------------------------- the sources


def git(gitdir: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(gitdir), *args], check=True, capture_output=True, text=True, errors="replace"
    ).stdout


_TREES: dict[tuple[str, str], list[str]] = {}
_READERS: dict[str, subprocess.Popen] = {}


def tree(gitdir: Path, rev: str, path: str) -> list[str]:
    """The files below ``path`` at ``rev`` (one ``ls-tree`` per commit, kept)."""
    k = (str(gitdir), rev)
    if k not in _TREES:
        _TREES[k] = [ln for ln in git(gitdir, "ls-tree", "-r", "--name-only", rev).splitlines() if ln]
    prefix = path.rstrip("/") + "/"
    return [p for p in _TREES[k] if p.startswith(prefix) or p == path]


def show(gitdir: Path, rev: str, path: str) -> str:
    """A file's text at ``rev``, through one ``git cat-file --batch`` per mirror."""
    proc = _READERS.get(str(gitdir))
    if proc is None:
        proc = subprocess.Popen(
            ["git", "--git-dir", str(gitdir), "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        _READERS[str(gitdir)] = proc
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{rev}:{path}\n".encode())
    proc.stdin.flush()
    header = proc.stdout.readline().split()
    if len(header) < 3 or header[1] != b"blob":
        raise FileNotFoundError(f"{rev}:{path}")
    data = proc.stdout.read(int(header[2]) + 1)[:-1]
    return data.decode("utf-8", errors="replace")


def _entry(r: Reading, doc: dict[str, dict], doc_lines: dict[str, str] | None = None) -> dict:
    params = {}
    doc_lines = doc_lines or {}
    for name, p in sorted(r.params.items()):
        d = doc.get(name, {})
        entry = {"type": p["type"] or "string"}
        if p.get("at"):
            entry["at"] = p["at"]
        if name in doc_lines:
            entry["doc"] = doc_lines[name]
        if p.get("open_children"):
            entry["open_children"] = True
        if p["default"] is not None:
            entry["default"] = p["default"]
        if p["repeats"] or d.get("repeats"):
            entry["repeats"] = True
        if p["required"]:  # the code gives up without it (a header saying "must appear" may be outdated:
            entry["required"] = True  # AckermannSteering's <left_joint> is not needed with <steering_only>)
        if p["names"]:
            entry["names"] = p["names"]
        if name in r.children:
            entry["children"] = sorted(r.children[name])
        params[name] = entry
    for name, d in sorted(doc.items()):
        if name not in params and not any(name in c for c in r.children.values()):
            params[name] = {"type": "string", "documented_only": True}
            if name in doc_lines:
                params[name]["doc"] = doc_lines[name]
            if d.get("repeats"):
                params[name]["repeats"] = True
    return params


def gz_sim(gitdir: Path, rev: str = "HEAD", label: str = "gz-sim") -> tuple[dict, list[dict]]:
    commit = git(gitdir, "rev-parse", rev).strip()
    version = re.search(r"project\s*\((?:\s*gz-sim|\s*ignition-gazebo)(\d*)", show(gitdir, commit, "CMakeLists.txt"))
    major = version.group(1) if version else ""
    source = {"repo": "gazebosim/gz-sim", "commit": commit, "major": major}
    plugins = []
    dirs = sorted({p.split("/")[2] for p in tree(gitdir, commit, "src/systems") if p.count("/") >= 3})
    for d in dirs:
        files = [p for p in tree(gitdir, commit, f"src/systems/{d}") if p.endswith((".cc", ".hh", ".h", ".cpp"))]
        files = [p for p in files if "_TEST" not in p and "/test" not in p]
        texts = {p: show(gitdir, commit, p) for p in files}
        cmake = (
            show(gitdir, commit, f"src/systems/{d}/CMakeLists.txt")
            if f"src/systems/{d}/CMakeLists.txt" in tree(gitdir, commit, f"src/systems/{d}")
            else ""
        )
        libs = re.findall(r"(?:gz|ign)_add_system\s*\(\s*([\w\-]+)", cmake)
        if not libs:
            continue
        classes: list[str] = []
        aliases: list[str] = []
        for text in texts.values():
            code = strip_comments(text)
            classes += re.findall(r"(?:GZ|IGNITION)_ADD_PLUGIN\s*\(\s*([\w:]+)", code)
            aliases += re.findall(r"(?:GZ|IGNITION)_ADD_PLUGIN_ALIAS\s*\(\s*[\w:]+\s*,\s*\"([^\"]+)\"", code)
        if not classes:
            continue
        reading = read_parameters(list(texts.values()), paths=list(texts))
        doc: dict[str, dict] = {}
        header = None
        for p, text in texts.items():
            if p.endswith(".hh"):
                found = read_header_doc(text)
                if found and not doc:
                    doc, header = found, p
        header = header or next((p for p in texts if p.endswith(".hh")), None)
        names = []
        for cls in classes:
            short = cls.split("::")[-1]
            names.append(f"gz::sim::systems::{short}")
        for alias in aliases:
            alias = class_key(alias)
            if alias not in names:
                names.append(alias)
        plugins.append(
            {
                "source": label,
                "dir": f"src/systems/{d}",
                "header": header,
                "filenames": [f"gz-sim-{lib}-system" for lib in libs],
                "names": names,
                "open": sorted(set(reading.open_reasons))[:3],
                "params": _entry(
                    reading, doc, header_doc_lines(texts[header], header, set(doc)) if doc and header else None
                ),
            }
        )
    return source, plugins


def gz_gui(gitdir: Path, rev: str = "HEAD", label: str = "gz-gui") -> tuple[dict, list[dict]]:
    commit = git(gitdir, "rev-parse", rev).strip()
    version = re.search(r"project\s*\((?:\s*gz-gui|\s*ignition-gui)(\d*)", show(gitdir, commit, "CMakeLists.txt"))
    source = {"repo": "gazebosim/gz-gui", "commit": commit, "major": version.group(1) if version else ""}
    # the window settings every plugin takes, read by Plugin::Load (<gz-gui>, formerly <ignition-gui>)
    common = re.findall(
        r"_pluginElem->FirstChildElement\(\s*\"([\w\-]+)\"", strip_comments(show(gitdir, commit, "src/Plugin.cc"))
    )
    plugins = []
    dirs = sorted({p.split("/")[2] for p in tree(gitdir, commit, "src/plugins") if p.count("/") >= 3})
    for d in dirs:
        files = [p for p in tree(gitdir, commit, f"src/plugins/{d}") if p.endswith((".cc", ".hh"))]
        files = [p for p in files if "_TEST" not in p]
        texts = {p: strip_comments(show(gitdir, commit, p)) for p in files}
        cmake_path = f"src/plugins/{d}/CMakeLists.txt"
        cmake = show(gitdir, commit, cmake_path) if cmake_path in tree(gitdir, commit, f"src/plugins/{d}") else ""
        libs = re.findall(r"(?:gz|ign)_gui_add_plugin\s*\(\s*([\w\-]+)", cmake)
        if not libs:
            continue
        r = Reading()
        var_elem: dict[str, str] = {}
        for path, text in texts.items():
            for m in re.finditer(r"(\w+)\s*(?:->|\.)\s*FirstChildElement\s*\(\s*(\"\w+\"|\w*)\s*\)", text):
                recv, arg = m.group(1), m.group(2)
                if not arg.startswith('"'):
                    if recv in ("_pluginElem", "pluginElem", "_elem", "elem") or recv in var_elem:
                        r.open_reasons.append(f"FirstChildElement({arg})")
                    continue
                name = arg.strip('"')
                if recv in var_elem:
                    r.children.setdefault(var_elem[recv], set()).add(name)
                else:
                    r.param(name).setdefault("at", f"{path}#L{text.count(chr(10), 0, m.start()) + 1}")
                before = text[max(0, m.start() - 80) : m.start()]
                a = re.search(r"(?:auto|tinyxml2::XMLElement)\s*\*?\s*(\w+)\s*=\s*$", before)
                if a:
                    var_elem[a.group(1)] = name
            for m in re.finditer(r"NextSiblingElement\s*\(\s*\"(\w+)\"\s*\)", text):
                if m.group(1) in r.params:
                    r.params[m.group(1)]["repeats"] = True
        for name, p in r.params.items():
            p["type"] = "string"
            if TOPIC.search(name):
                p["names"] = "topic"
        for name in common:
            r.param(name)["type"] = "other"
        # the plugin's header (named as its library, MinimalScene.hh beside MinimalSceneRhi.hh) and
        # where its "Configuration" (or "Parameters") section lists each parameter
        headers = sorted((p for p in texts if p.endswith(".hh")), key=lambda p: Path(p).stem not in libs)
        header = headers[0] if headers else None
        doc_lines = (
            header_doc_lines(show(gitdir, commit, header), header, set(r.params), GUI_DOC_SECTION, GUI_DOC_ITEM)
            if header
            else {}
        )
        plugins.append(
            {
                "source": label,
                "dir": f"src/plugins/{d}",
                "header": header,
                "filenames": libs,
                "names": [],
                "gui": True,
                "open": sorted(set(r.open_reasons))[:3],
                "params": _entry(r, {}, doc_lines),
            }
        )
    return source, plugins


CLASS_DEF = re.compile(
    r"\bclass\s+(?:[A-Z][A-Z0-9_]*\s+)*(?P<name>[A-Za-z_]\w*)\s*(?:final\s*)?(?::\s*(?P<bases>[^{;()]*))?\{"
)
# the class Gazebo instantiates: GZ_REGISTER_*_PLUGIN(C) defines the library's RegisterPlugin(),
# which some libraries write by hand (ROS 2's gazebo_ros_camera: `return (...)(new GazeboRosCamera());`)
REGISTERED = re.compile(
    r"\bGZ_REGISTER_\w+_PLUGIN\s*\(\s*(?:[\w:]*::)?(\w+)\s*\)"
    r"|\bRegisterPlugin\s*\(\s*\)\s*\{[^{}]*?\bnew\s+(?:[\w:]*::)?(\w+)\s*\("
)


def registered(code: str) -> list[str]:
    """The plugin classes a library's code registers."""
    return [a or b for a, b in REGISTERED.findall(code)]


Sources = list[tuple[str, str]]  # (path, text) of the files a class is read from


def class_definitions(files: Sources) -> dict[str, list[str]]:
    """The classes ``files`` define: name -> the bases it inherits, as written (``gazebo::CameraPlugin``)."""
    out: dict[str, list[str]] = {}
    for _path, text in files:
        for m in CLASS_DEF.finditer(strip_comments(text)):
            bases = [
                re.sub(r"^(?:(?:public|protected|private|virtual)\s+)+", "", b.strip())
                for b in _split_args(m.group("bases") or "")
            ]
            out.setdefault(m.group("name"), [b for b in bases if b])
    return out


def with_bases(cls: str, own: Sources, classes: dict[str, Sources]) -> tuple[Sources, list[str]]:
    """The sources a plugin class is read from: its own and those of every base class it inherits
    (a base reads parameters of its own from the same element: GazeboRosCamera inherits
    gazebo-classic's CameraPlugin and gazebo_ros' GazeboRosCameraUtils), found in ``classes``
    (name -> sources); the plugin interfaces (``PLAIN_BASES``) read none. A base we cannot read,
    or a class whose definition is not in its sources, makes the plugin open."""
    out: Sources = list(own)
    reasons: list[str] = []
    seen = {cls}
    stack = [(cls, own)]
    while stack:
        name, files = stack.pop()
        defined = class_definitions(files)
        if name not in defined:
            reasons.append(f"class {name} not found")
            continue
        for base in defined[name]:
            short = re.sub(r"<.*", "", base).split("::")[-1]
            if short in PLAIN_BASES or short in seen:
                continue
            seen.add(short)
            if short in classes:
                out += [f for f in classes[short] if f not in out]
                stack.append((short, classes[short]))
            else:
                reasons.append(f"inherits {base}")  # the base class may read parameters of its own
    return out, reasons


def cmake_libraries(cmake: str) -> dict[str, list[str]]:
    """The libraries a CMakeLists builds: name -> its source files, with ``set`` lists (and their
    appends under ``if``) and ``foreach (src ${list}) add_library(${src} SHARED ${src}.cc)`` expanded."""
    text = re.sub(r"#[^\n]*", "", cmake)
    lists: dict[str, list[str]] = {}

    def expand(items: list[str], var: str = "", value: str = "") -> list[str]:
        out = []
        for item in items:
            if var:
                item = item.replace("${" + var + "}", value)
            ref = re.fullmatch(r"\$\{(\w+)\}", item)
            out += lists.get(ref.group(1), []) if ref else [item]
        return out

    libs: dict[str, list[str]] = {}
    loop_end = -1
    for m in re.finditer(r"\b(set|foreach|add_library)\s*\(([^)]*)\)", text):
        cmd, args = m.group(1), m.group(2).split()
        if m.start() < loop_end or not args:
            continue  # inside a foreach, expanded with it
        if cmd == "set":
            lists[args[0]] = expand(args[1:])
        elif cmd == "foreach":
            end = text.find("endforeach", m.end())
            loop_end = end if end != -1 else len(text)
            body = text[m.end() : loop_end]
            for value in expand(args[1:]):
                for lib in re.finditer(r"\badd_library\s*\(([^)]*)\)", body):
                    words = expand(lib.group(1).split(), args[0], value)
                    libs[words[0]] = [w for w in words[1:] if w not in ("SHARED", "STATIC", "MODULE")]
        else:
            libs[args[0]] = [w for w in expand(args[1:]) if w not in ("SHARED", "STATIC", "MODULE")]
    return libs


def gazebo_classic(gitdir: Path, rev: str, label: str) -> tuple[dict, list[dict], dict[str, Sources]]:
    """gazebo-classic's plugins (``plugins/``, ``libDiffDrivePlugin.so``): each library its CMakeLists
    builds, read from its sources and headers (``X.cc``, ``X.hh``, ``XPrivate.hh``) and those of the
    classes it inherits; Gazebo loads them by file name only. Also returns every class the libraries
    define with its sources, for the gazebo_ros plugins built on them."""
    commit = git(gitdir, "rev-parse", rev + "^{commit}").strip()
    files = set(tree(gitdir, commit, "plugins"))
    version = re.search(r"set\s*\(\s*GAZEBO_MAJOR_VERSION\s+(\d+)", show(gitdir, commit, "CMakeLists.txt"))
    source = {"repo": "gazebosim/gazebo-classic", "major": version.group(1) if version else ""}
    built: dict[str, Sources] = {}
    for cmake_path in sorted(f for f in files if f.endswith("CMakeLists.txt")):
        where = cmake_path.rsplit("/", 1)[0]
        for lib, srcs in cmake_libraries(show(gitdir, commit, cmake_path)).items():
            own: Sources = []
            for src in srcs:
                if not src.endswith((".cc", ".cpp")):
                    continue
                stem = f"{where}/{src.rsplit('.', 1)[0]}"
                for path in (f"{where}/{src}", f"{stem}.hh", f"{stem}Private.hh"):
                    if path in files and all(path != f for f, _ in own):
                        own.append((path, show(gitdir, commit, path)))
            if own and "_TEST" not in lib:
                built[lib] = own
    classes: dict[str, Sources] = {}
    for own in built.values():
        for name in class_definitions([f for f in own if f[0].endswith(".hh")]):
            classes.setdefault(name, own)
    plugins = []
    for lib, own in sorted(built.items()):
        plugin_classes = registered("\n".join(strip_comments(t) for _, t in own))
        if not plugin_classes:
            continue  # a library of helpers or a base class (TrackedVehiclePlugin): not loaded as a plugin
        read, reasons = with_bases(plugin_classes[0], own, classes)
        reading = read_parameters([t for _, t in read], paths=[f for f, _ in read])
        reading.open_reasons += reasons
        header = next((f for f, _ in own if f.endswith(".hh")), own[0][0])
        plugins.append(
            {
                "source": label,
                "dir": own[0][0],
                "header": header,
                "filenames": [lib],
                "names": [],
                "open": sorted(set(reading.open_reasons))[:3],
                "params": _entry(reading, {}),
            }
        )
    return source, plugins, classes


def gazebo_ros(
    gitdir: Path, rev: str, label: str, classic: tuple[str, dict[str, Sources]] | None = None
) -> tuple[dict, list[dict]]:
    """gazebo_ros_pkgs' ``gazebo_plugins``; ``classic`` is (label, classes) of gazebo-classic's
    plugins, whose classes the ROS plugins inherit (their lines are linked in that source)."""
    commit = git(gitdir, "rev-parse", rev).strip()
    source = {"repo": "ros-simulation/gazebo_ros_pkgs", "commit": commit}
    cmake = show(gitdir, commit, "gazebo_plugins/CMakeLists.txt")
    files = set(tree(gitdir, commit, "gazebo_plugins"))
    # the classes the package's headers define, with their sources (MultiCameraPlugin,
    # GazeboRosCameraUtils), and gazebo-classic's (CameraPlugin, WheelSlipPlugin)
    classes: dict[str, Sources] = {}
    if classic is not None:
        classic_label, classic_classes = classic
        for name, own in classic_classes.items():
            classes[name] = [(f"{classic_label}:{path}", text) for path, text in own]
    include = "gazebo_plugins/include/gazebo_plugins/"
    for h in sorted(f for f in files if f.startswith(include) and f.endswith((".h", ".hpp"))):
        own = [(h, show(gitdir, commit, h))]
        stem = Path(h).stem
        for s in (f"gazebo_plugins/src/{stem}.cpp", f"gazebo_plugins/src/{stem}.cc"):
            if s in files:
                own.append((s, show(gitdir, commit, s)))
        for name in class_definitions(own[:1]):
            classes[name] = own
    plugins = []
    for m in re.finditer(r"add_library\s*\(\s*([\w\-]+)\s+(?:SHARED\s+)?([^)]*)\)", cmake):
        lib, srcs = m.group(1), m.group(2).split()
        srcs = [f"gazebo_plugins/{s}" for s in srcs if s.endswith((".cpp", ".cc"))]
        if not srcs or not lib.startswith("gazebo_ros"):
            continue
        own: Sources = []
        for s in srcs:
            if s in files:
                own.append((s, show(gitdir, commit, s)))
            stem = Path(s).stem
            for h in (f"{include}{stem}.h", f"{include}{stem}.hpp"):
                if h in files:
                    own.append((h, show(gitdir, commit, h)))
        code = "\n".join(strip_comments(t) for _, t in own)
        plugin_classes = registered(code)
        if not plugin_classes:
            continue
        helpers = []
        if re.search(r"\bGazeboRos(Ptr)?\b", code):  # the ROS 1 helper (robotNamespace, rosDebugLevel, ...)
            for helper in ("gazebo_plugins/src/gazebo_ros_utils.cpp", f"{include}gazebo_ros_utils.h"):
                if helper in files:
                    helpers.append(show(gitdir, commit, helper))
        read, reasons = with_bases(plugin_classes[0], own, classes)
        reading = read_parameters([t for _, t in read], paths=[f for f, _ in read])
        reading.open_reasons += reasons
        if helpers:
            # the names the helper reads itself; the ones it reads for the plugin (getParameter's
            # tag) are the plugin's calls, already read: its own variable keys do not open the plugin
            for name, p in read_parameters(helpers).params.items():
                reading.params.setdefault(name, p)
        if "robotNamespace" in reading.params and reading.params["robotNamespace"]["type"] is None:
            reading.params["robotNamespace"]["type"] = "string"
        plugins.append(
            {
                "source": label,
                "dir": srcs[0],
                "header": srcs[0],
                "filenames": [lib],
                "names": [],
                "open": sorted(set(reading.open_reasons))[:3],
                "params": _entry(reading, {}),
            }
        )
    return source, plugins


# The release branches read (the newest first): a parameter any of them reads is known, so that a
# document written for an older Gazebo is not told that its parameters are ignored.
GZ_SIM_BRANCHES = ("main", "gz-sim10", "gz-sim9", "gz-sim8", "gz-sim7", "ign-gazebo6")
GZ_GUI_BRANCHES = ("main", "gz-gui10", "gz-gui9", "gz-gui8", "gz-gui7", "ign-gui6")
ROS_BRANCHES = ("ros2", "foxy", "noetic-devel", "melodic-devel", "kinetic-devel")


def _has_branch(gitdir: Path, branch: str) -> bool:
    return (
        subprocess.run(
            ["git", "--git-dir", str(gitdir), "rev-parse", "--verify", "-q", f"refs/heads/{branch}"],
            capture_output=True,
        ).returncode
        == 0
    )


# gazebo-classic: the snapshot of gazebosim/gazebo-classic is over the fetch tool's size limit, so
# it is read from Debian's packaging repository of gazebo 11, which imports each upstream release
# tarball as one commit (tag upstream/<version>+dfsg; the +dfsg repack drops fonts and bundled
# third-party code, nothing under plugins/). The links name upstream's tag of the same release.
CLASSIC_MIRROR = "elysia-best+gazebo-classic"
CLASSIC_RELEASES = (("gazebo11", "refs/tags/upstream/11.10.2+dfsg", "gazebo11_11.10.2"),)


def generate(mirror: Path, pinned: dict | None = None) -> dict:
    """The catalogue from the mirrors under ``mirror``: their release branches' newest commits, or
    those ``pinned`` (``{source: {"commit": ...}}``, the ``sources`` of a committed catalogue)."""
    sources: dict[str, dict] = {}
    found: list[dict] = []
    sim = mirror / "gazebosim+gz-sim" / "repo"
    if not sim.exists():
        raise SystemExit(f"no gz-sim mirror at {sim}")
    classic: tuple[str, dict[str, Sources]] | None = None
    classic_git = mirror / CLASSIC_MIRROR / "repo"
    for branch, rev, tag in CLASSIC_RELEASES if classic_git.exists() else ():
        label = f"gazebo-classic@{branch}"
        if pinned is not None:
            if label not in pinned:
                continue
            rev = pinned[label]["read_commit"]
        source, plugins, classes = gazebo_classic(classic_git, rev, label)
        source.update(
            commit=tag,  # upstream's tag of the release: the links point there
            branch=branch,
            read_from=CLASSIC_MIRROR.replace("+", "/"),
            read_commit=git(classic_git, "rev-parse", rev + "^{commit}").strip(),
        )
        sources[label] = source
        found += plugins
        classic = classic or (label, classes)
    readers = (
        (sim, GZ_SIM_BRANCHES, "gz-sim", gz_sim),
        (mirror / "gazebosim+gz-gui" / "repo", GZ_GUI_BRANCHES, "gz-gui", gz_gui),
        (
            mirror / "ros-simulation+gazebo_ros_pkgs" / "repo",
            ROS_BRANCHES,
            "gazebo_ros_pkgs",
            lambda gitdir, rev, label: gazebo_ros(gitdir, rev, label, classic),
        ),
    )
    for gitdir, branches, name, reader in readers:
        if not gitdir.exists():
            continue
        for branch in branches:
            label = f"{name}@{branch}"
            if pinned is not None:
                if label not in pinned:
                    continue
                rev = pinned[label]["commit"]
            elif _has_branch(gitdir, branch):
                rev = f"refs/heads/{branch}"
            else:
                continue
            source, plugins = reader(gitdir, rev, label)
            source["branch"] = branch
            sources[label] = source
            found += plugins
    return {"format": 1, "sources": sources, "plugins": merge(found)}


def merge(found: list[dict]) -> list[dict]:
    """One entry per library (by ``key`` of its file name) over every branch that builds it: the union
    of the parameters (a type two branches disagree on becomes "string", any text), required only
    where every branch having the plugin requires it, open where any branch is."""
    by_key: dict[str, list[dict]] = {}
    for entry in found:
        by_key.setdefault(key(entry["filenames"][0]), []).append(entry)
    out = []
    for k in sorted(by_key):
        entries = by_key[k]
        first = entries[0]
        params: dict[str, dict] = {}
        for entry in entries:
            for name, p in entry["params"].items():
                have = params.get(name)
                if have is None or (have.get("documented_only") and not p.get("documented_only")):
                    params[name] = dict(p)
                    for line in ("at", "doc"):  # the line is in that branch's sources: say which
                        if line in p and ":" not in p[line].split("#", 1)[0]:  # (unless a base's: said)
                            params[name][line] = f"{entry['source']}:{p[line]}"
                    continue
                if have["type"] != p["type"]:
                    have["type"] = "string" if "string" in (have["type"], p["type"]) else "other"
                for flag in ("repeats",):
                    if p.get(flag):
                        have[flag] = True
                for field in ("names", "default"):
                    if field not in have and field in p:
                        have[field] = p[field]
                if "children" in p:
                    have["children"] = sorted(set(have.get("children", ())) | set(p["children"]))
        for name, p in params.items():
            if p.get("required") and not all(e["params"].get(name, {}).get("required") for e in entries):
                del p["required"]
        merged = {
            "source": first["source"],
            "sources": sorted({e["source"] for e in entries}),
            "dir": first["dir"],
            "header": first["header"],
            "filenames": sorted({key(f) for e in entries for f in e["filenames"]}),
            "names": list(dict.fromkeys(n for e in entries for n in e["names"])),
            "open": sorted({r for e in entries for r in e["open"]})[:3],
            "params": dict(sorted(params.items())),
        }
        if first.get("gui"):
            merged["gui"] = True
        out.append(merged)
    return out


def render(data: dict) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--mirror", type=Path, default=MIRROR)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--check",
        action="store_true",
        help="regenerate from the commits the committed table records and fail when it differs",
    )
    args = parser.parse_args(argv)
    pinned = json.loads(args.out.read_text())["sources"] if args.check and args.out.exists() else None
    data = generate(args.mirror, pinned)
    text = render(data)
    if args.check:
        old = args.out.read_text() if args.out.exists() else ""
        if old != text:
            print(f"{args.out} is stale: run scripts/generate_plugins.py", file=sys.stderr)
            return 1
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    counts: dict[str, int] = {}
    for p in data["plugins"]:
        for source in p["sources"]:
            counts[source] = counts.get(source, 0) + 1
    for name, n in counts.items():
        print(f"{name} {data['sources'][name]['commit'][:12]}: {n} plugins")
    print(f"{len(data['plugins'])} libraries")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
