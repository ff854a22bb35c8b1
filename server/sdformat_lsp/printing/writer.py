"""The document as the analysis sees it, written out: ``sdformat-lsp print`` (``gz sdf -p``).

- Includes are expanded: each ``<include>`` becomes the ``<model>`` it brings in, named as the
  include names it, with its ``<static>`` as the include sets it, and placed where libsdformat
  places it: its ``<pose>`` is the resolved pose of the model frame relative to the parent
  model (or the world), so a ``placement_frame`` has been applied and is dropped. A
  ``merge="true"`` include is merged as libsdformat merges it (``merge``), an
  ``<experimental:params>`` is applied to the included files (``params``), and an included
  URDF is converted by the converter the shell gives.
- The ``version`` becomes the newest SDFormat (or the one asked for); each file (the document
  and every included one) is converted from its own version, as libsdformat converts it. From
  1.8 on the versions differ in nothing a document has to change; from 1.7 an empty
  ``relative_to`` of an inertial pose goes and a world's flattened models (``::`` names that
  old tools wrote) are unflattened (``unflatten``); from 1.6, ``<pose frame>`` becomes
  ``relative_to`` and ``<use_parent_model_frame>`` becomes ``<xyz expressed_in="__model__">``
  (``1_6.convert``); from 1.3, 1.4 and 1.5 the rules of ``legacy``. Older documents are
  refused, and so are ``::`` names outside a world and parameters print cannot place.
- ``resolve_poses``: every pose SDFormat lets a document write relative to the model's frame
  (the world's in a world) is written so: links, joints, frames, nested models, and the
  visuals, collisions, sensors, lights, particle emitters and projectors of links (see
  ``poses``, which says why inertial and camera poses stay relative to their parent).
- ``degrees``: angles in degrees (``degrees="true"``); quaternion poses stay quaternions unless
  resolved.

Everything else is copied from the source texts as written (comments and ``<plugin>`` bodies
included: the changes are spliced in), then indented by the formatter, so an included model
sits at its depth. Numbers are written exactly (shortest round trip). What cannot be printed
faithfully raises :class:`PrintRefused` with the place that stops it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..formatting import FormatRefused, format_text
from ..model.builder import version_tuple
from ..model.transform import IDENTITY, Transform
from ..collector_pause import collector_paused
from ..semantics.includes.params import params_element
from ..text import Span
from .legacy import OLDEST, Legacy, axis_expressed_in_model, converted_from
from .merge import KEPT, child_rules, open_merged
from .params import SKIP_ATTRS, Ops, ParamsRefused, apply_ops, collect
from .poses import degrees_of, pose_text, resolved
from .unflatten import Plan, UnflattenRefused, plan
from .splice import drop_attribute, escape_attr, escape_text, indent_of, line_start

LATEST = "1.12"


@dataclass
class PrintRefused(Exception):
    message: str
    span: Span
    path: str | None = None

    def __str__(self) -> str:
        return self.message


def printed(
    analysis, version: str | None = None, resolve_poses: bool = False, degrees: bool = False, urdf_to_sdf=None
) -> str:
    """The document of ``analysis`` (which must check without errors) as text.

    ``urdf_to_sdf``: the URDF converter (``convert.to_sdf.urdf_to_sdf``, given by the shell so
    that this feature does not reach into a sibling layer), needed to expand included URDF files.
    """
    with collector_paused():
        return _printed(analysis, version, resolve_poses, degrees, urdf_to_sdf)


def _printed(analysis, version: str | None, resolve_poses: bool, degrees: bool, urdf_to_sdf) -> str:
    graphs = analysis.graphs
    root = analysis.xml.root
    if graphs is None or root is None:
        raise PrintRefused("there is no model or world to print", Span(0, 0))
    source = version_tuple(analysis.version)
    target = version or LATEST
    target_t = version_tuple(target)
    if target_t < source or target_t > version_tuple(LATEST) or target_t < (1, 0):
        raise PrintRefused(
            f"cannot print SDFormat {analysis.version} as {target}: choose a version from {analysis.version} to {LATEST}",
            root.tag_span,
        )
    if source == (1, 0) and target_t != source and root.tag == "sdf":
        from ..semantics import analyze  # the 1.2 text is analysed again: printing goes on from there

        from .from_1_0 import converted_from_1_0

        return _printed(
            analyze(converted_from_1_0(root, analysis.text), analysis.path),
            version,
            resolve_poses,
            degrees,
            urdf_to_sdf,
        )
    if source < OLDEST and target_t != source:
        raise PrintRefused(
            f"converting SDFormat {analysis.version} to {target} is not supported (only from {OLDEST[0]}.{OLDEST[1]} on); "
            f"print it as {analysis.version} with --version {analysis.version}",
            root.tag_span,
        )
    if resolve_poses and target_t < (1, 7):
        raise PrintRefused(
            f"--resolve-poses writes relative_to, which SDFormat has from 1.7 on: print as 1.7 or newer, not {target}",
            root.tag_span,
        )
    flat = None
    if source < (1, 8) <= target_t:
        worlds = [c for c in root.children if c.tag == "world"]
        if worlds:  # 1_7.convert unflattens the models of worlds
            flat = Plan()
            try:
                for world in worlds:
                    flat.merge(plan(world))
            except UnflattenRefused as exc:
                raise PrintRefused(exc.message, exc.element.tag_span) from None
            if not flat.moved:
                flat = None
            elif resolve_poses or degrees:  # unflatten first, then resolve in the models it made
                from ..semantics import analyze

                first = _printed(analysis, version, False, False, urdf_to_sdf)
                return _printed(analyze(first, analysis.path), version, resolve_poses, degrees, urdf_to_sdf)
        else:
            for el in root.iter():
                name = el.get("name") or ""
                if "::" in name and el.tag in ("link", "joint", "frame", "model"):
                    raise PrintRefused(
                        f"'{name}' is a flattened name, which SDFormat 1.8 forbids and libsdformat unflattens only in "
                        f"worlds: print it as {analysis.version} with --version {analysis.version}",
                        el.attr("name").value_span,
                    )
    includes = _includes(graphs, source, urdf_to_sdf)
    poses = resolved(analysis) if resolve_poses else {}
    writer = _Writer(graphs, analysis.text, target, includes, poses, degrees, resolve_poses)
    writer.urdf_to_sdf = urdf_to_sdf
    writer.top_level = _light_and_actor_includes(analysis)
    writer.failed = {id(rec.include.element) for rec in analysis.includes if rec.analysis is None and rec.model is None}
    if flat is not None:
        writer.flat = flat
        writer.param_ops.update(flat.ops)
        writer.expanded = True  # the new models are re-indented by the formatter
    out = writer.run(root, source)
    if not writer.expanded:
        return out
    try:
        return format_text(out)  # included models come with their own file's indentation
    except FormatRefused:  # pragma: no cover - the splices of well-formed documents are well formed
        return out


def _light_and_actor_includes(analysis) -> dict[int, object]:
    """id(<include> element) -> its IncludeRecord, for every include (at any depth) that brought in
    a file whose top-level element is an <actor> or a <light> (``model://sun``): libsdformat
    expands those too (parser.cc takes the first <model>, else <actor>, else <light>)."""
    out: dict[int, object] = {}
    stack, seen = [analysis], set()
    while stack:
        a = stack.pop()
        if id(a) in seen:
            continue
        seen.add(id(a))
        for rec in getattr(a, "includes", ()):
            sub = rec.analysis
            if sub is None:
                continue
            stack.append(sub)
            root = sub.xml.root
            if rec.model is None and root is not None and root.tag == "sdf" and _top_level_element(root) is not None:
                out[id(rec.include.element)] = rec
    return out


def _top_level_element(root):
    """What libsdformat takes from an included file that has no <model>: its first <actor>, else its first <light>."""
    if root.child("model") is not None:
        return None
    return root.child("actor") or root.child("light")


def _includes(graphs, version, urdf_to_sdf) -> dict[int, tuple]:
    """id(<include> element) -> (the include, the scope of the model it brings in, for a merge the
    view of the merged entities); refuses what cannot be expanded."""
    out = {}
    for inc, scope in graphs.included:
        where = inc.element.tag_span
        model = scope.entity
        src = getattr(model, "source", None)
        root = src.xml.root if src is not None else None
        if getattr(src, "interface_parser", None) is not None or (root is not None and root.tag == "mujoco"):
            continue  # a model of another format (interface API): libsdformat prints its <include> as written
        if root is None or root.tag not in ("sdf", "robot"):
            raise PrintRefused(
                "only SDFormat and URDF models can be expanded by print (this include brings in something else)", where
            )
        if root.tag == "robot" and urdf_to_sdf is None:
            raise PrintRefused(
                "expanding an included URDF needs the URDF converter, which this caller did not give", where
            )
        out[id(inc.element)] = (inc, scope)
    return out


class _Writer:
    """Splices the changes into the source text: what is not changed is copied as written."""

    urdf_to_sdf: Callable[[Any], Any]  # the URDF converter the shell gave print (set before run)

    def __init__(self, graphs, text, version, includes, poses, degrees, resolve) -> None:
        self.graphs = graphs
        self.text = text
        self.version = version
        self.target = version_tuple(version)
        self.includes = includes
        self.poses = poses
        self.degrees = degrees
        self.resolve = resolve
        self.expanded = False  # an include was expanded: the result is re-indented by the formatter
        self.merge_rel: dict[int, str] = {}  # id(<pose>) -> the proxy frame its relative_to becomes (merge.py)
        self.param_ops: dict[int, Ops] = {}  # id(element of an included file) -> what <experimental:params> does to it
        self.homes: dict[int, tuple] = {}  # id(element of an <experimental:params>) -> (its text, its version)
        self.paths: dict[int, str | None] = {}  # id(source text) -> its file, for refusals
        self.flat: Plan | None = None  # of a flattened 1.7 world
        self.top_level: dict[int, object] = {}  # id(<include>) -> IncludeRecord of an included <actor> or <light>
        self.failed: set[int] = set()  # id(<include>) of includes that found no file: libsdformat leaves them out
        self.newlines: dict[int, str] = {}

    def run(self, root, source: tuple[int, int]) -> str:
        return '<?xml version="1.0" ?>\n' + self._render(root, self.text, None, source, top=True) + "\n"

    def _render(self, el, text: str, override, source: tuple[int, int], top: bool = False) -> str:
        """The source of ``el`` in ``text`` (a file of SDFormat ``source``) with every change inside it applied.

        Each file is converted from its own version: libsdformat converts an included file
        before it merges it into the including document."""
        repl: list[tuple[int, int, str]] = []
        if self.target > source:
            source = converted_from(source)
        frames_1_7 = source < (1, 7) <= self.target  # pose@frame is relative_to, use_parent_model_frame is expressed_in
        inertial_1_8 = source < (1, 8) <= self.target  # an empty relative_to of an inertial pose goes
        legacy = Legacy(source, self.target, text, self._newline(text)) if source < (1, 6) else None
        if top:
            v = el.attr("version")
            if v is not None:
                repl.append((v.value_span.start, v.value_span.end, escape_attr(self.version)))
        merged = None  # the proxy frame's name, in a merged model
        if override is not None and "merge" in override:
            open_merged(self, el, text, override["merge"], repl)
            merged = override["merge"].node.name
        elif override is not None and "top_level" in override:
            _override_top_level(el, text, override["top_level"], repl, self._newline(text))
        elif override is not None and "param" not in override:
            self._override(el, text, override, repl)
        elif self.resolve and el.tag == "model":
            drop_attribute(el, "placement_frame", text, repl)
        if override is not None and "param" in override:  # the content of an <experimental:params> child
            for attr in SKIP_ATTRS:
                drop_attribute(el, attr, text, repl)
        top_ops = self.param_ops.get(id(el)) if self.param_ops else None
        if top_ops is not None:
            apply_ops(self, el, text, top_ops, repl)
        if self.flat is not None:
            self._unflattened(el, text, source, repl)
        stack = list(reversed(el.children))
        while stack:
            d = stack.pop()
            tag = d.tag
            if merged is not None and d.parent is el:
                if tag not in KEPT and ":" not in tag:
                    continue  # dropped by the merge (open_merged)
                if tag != "include":
                    child_rules(self, d, text, merged, repl)
            if self.flat is not None:
                if id(d) in self.flat.moved:
                    repl.append((line_start(text, d.span.start), d.span.end, ""))
                    continue
                self._unflattened(d, text, source, repl)
            ops = self.param_ops.get(id(d)) if self.param_ops else None
            if ops is not None and (tag != "pose" or ops.delete or ops.replace is not None):
                if apply_ops(self, d, text, ops, repl):
                    continue
            if tag == "plugin" or ":" in tag:
                continue  # someone else's content: as written
            if tag == "include":
                found = self.includes.get(id(d))
                rec = self.top_level.get(id(d)) if found is None else None
                if (
                    found is None and id(d) in self.failed
                ):  # a document printed with its errors: as libsdformat, without it
                    repl.append((line_start(text, d.span.start), d.span.end, ""))
                    continue
                if rec is not None:  # an <actor> or a <light> (model://sun)
                    sub = rec.analysis  # type: ignore[attr-defined]
                    inner_el = _top_level_element(sub.xml.root)
                    self.paths[id(sub.text)] = getattr(sub, "path", None)
                    inner = self._render(
                        inner_el, sub.text, {"top_level": d}, version_tuple(sub.version) if sub.version else source
                    )
                    self.expanded = True
                    repl.append((d.span.start, d.span.end, inner))
                    continue
                if found is not None:
                    inc, scope = found
                    model = scope.entity
                    if inc.merge:
                        over = {"merge": scope}
                    else:
                        over = {"name": model.name, "static": model.static, "pose": None, "relative_to": None}
                        real = scope.parent.real if scope.parent is not None else None
                        if real is not None and real.node is not None and scope.node is not None:
                            a, b = self.graphs.pose(real.node), self.graphs.pose(scope.node)
                            if a is not None and b is not None:
                                over["pose"] = a.inverse() * b
                            if real is not scope.parent:  # in a merged model: the default would be the proxy
                                over["relative_to"] = "world" if real.kind == "world" else "__model__"
                    self._params(d, model, text, source)
                    if model.source.xml.root.tag == "robot":
                        inner = self._urdf(model.source, over, d)
                    else:
                        inner = self._render(model.element, model.source.text, over, scope.version or source)
                    self.expanded = True
                    repl.append((d.span.start, d.span.end, inner))
                continue
            if tag == "pose":
                new = self._pose(d, inertial_1_8, ops)
                if new is not None:
                    repl.append((d.span.start, d.span.end, new))
                elif frames_1_7 and d.attr("frame") is not None:
                    a = d.attr("frame")
                    repl.append((a.name_span.start, a.name_span.end, "relative_to"))
                continue
            if legacy is not None and legacy.visit(d, repl):
                continue
            if tag in ("axis", "axis2") and d.parent is not None and d.parent.tag == "joint":
                in_model_frame = legacy is not None and legacy.axis_in_model_frame(d)
                if frames_1_7:
                    axis_expressed_in_model(d, text, repl, in_model_frame)
                elif in_model_frame and d.child("use_parent_model_frame") is None:  # printed as 1.5 or 1.6
                    repl.append((d.stag_end, d.stag_end, "<use_parent_model_frame>true</use_parent_model_frame>"))
            if self.resolve:
                if tag == "model":
                    drop_attribute(d, "placement_frame", text, repl)
                if id(d) in self.poses and d.child("pose") is None:
                    p = self.poses[id(d)]
                    nl = self._newline(text)
                    indent = indent_of(text, d.span.start)
                    pose = self._pose_element({"relative_to": p.relative_to} if p.relative_to else {}, p.transform)
                    if d.self_closing or text[d.stag_end : d.stag_end + 1] != "<":  # else: on the line of the start tag
                        pose = nl + indent + "  " + pose
                    if d.self_closing:  # <frame .../>: opened to hold the pose
                        repl.append((d.stag_end - 2, d.stag_end, ">" + pose + nl + indent + f"</{tag}>"))
                    else:
                        repl.append((d.stag_end, d.stag_end, pose))
            if d.children:
                stack.extend(reversed(d.children))
        span = el.span
        out = []
        pos = span.start
        for a, b, new in sorted(repl, key=lambda r: (r[0], r[1])):
            out.append(text[pos:a])
            out.append(new)
            pos = b
        out.append(text[pos : span.end])
        return "".join(out)

    def _unflattened(self, el, text: str, source, repl) -> None:
        """The models unflattening made from ``el``'s children, written before its end tag (unflatten.py)."""
        new = self.flat.appended.get(id(el)) if self.flat is not None else None
        if new and el.etag_start >= 0:
            nl = self._newline(text)
            at = line_start(text, el.etag_start)
            repl.append((at, at, "".join(nl + self._vmodel(vm, text, source) for vm in new)))

    def _vmodel(self, vm, text: str, source) -> str:
        nl = self._newline(text)
        attrs = f' name="{escape_attr(vm.name)}"' + (
            f' canonical_link="{escape_attr(vm.canonical)}"' if vm.canonical else ""
        )
        parts = []
        if vm.pose_el is not None:
            p = vm.pose_el
            parts.append(self._pose(p, True, self.param_ops.get(id(p))) or text[p.span.start : p.span.end])
        for item in vm.children:
            parts.append(
                self._vmodel(item.new, text, source)
                if item.new is not None
                else self._render(item.el, text, None, source)
            )
        return f"<model{attrs}>" + "".join(nl + part for part in parts) + nl + "</model>"

    def _params(self, include, model, text: str, source) -> None:
        """Record what the include's <experimental:params> changes in the included files (params.py)."""
        self.paths[id(model.source.text)] = getattr(model.source, "path", None)
        pe = params_element(include)
        if pe is None:
            return
        if model.element is None or model.element.tag != "model":
            raise PrintRefused(
                "print cannot apply <experimental:params> to an included URDF", pe.tag_span, self.paths.get(id(text))
            )
        try:
            collect(self, pe, model.element, self.param_ops)
        except ParamsRefused as exc:
            raise PrintRefused(exc.message, exc.element.tag_span, self.paths.get(id(text))) from None
        for x in pe.iter():
            self.homes[id(x)] = (text, source)

    def _param_content(self, p) -> str:
        """A parameter's element as the included model gets it: its own text, rendered, without element_id and action."""
        text, source = self.homes[id(p)]
        return self._render(p, text, {"param": True}, source)

    def _urdf(self, sub, override, include) -> str:
        """An included URDF: converted as libsdformat converts it, printed with the same options, placed by the include."""
        from ..semantics import analyze
        from ..xml import parse

        conversion = self.urdf_to_sdf(sub)
        if conversion.text is None:
            raise PrintRefused(
                f"the included URDF cannot be converted: {'; '.join(conversion.errors[:1])}", include.tag_span
            )
        if self.target < (1, 7):
            raise PrintRefused(
                f"an included URDF converts to SDFormat 1.7 or newer, not {self.version}", include.tag_span
            )
        converted = analyze(conversion.text, sub.path)
        text = _printed(converted, LATEST, self.resolve, self.degrees, None)
        printed = parse(text).root
        assert printed is not None  # our own print of a converted URDF
        model = printed.child("model")
        return self._render(model, text, override, self.target)

    def _override(self, el, text, override, repl) -> None:
        """An included model: its name, static and pose as the include sets them."""
        name = el.attr("name")
        if name is not None:
            repl.append((name.value_span.start, name.value_span.end, escape_attr(override["name"])))
        drop_attribute(el, "placement_frame", text, repl)
        for child in el.children:
            if child.tag in ("pose", "static"):
                repl.append((line_start(text, child.span.start), child.span.end, ""))
        nl = self._newline(text)
        added = ""
        if override["pose"] is not None:
            rel = {"relative_to": override["relative_to"]} if override["relative_to"] else {}
            added += nl + self._pose_element(rel, override["pose"])
        if override["static"]:
            added += nl + "<static>true</static>"
        if added:
            if el.self_closing:
                repl.append((el.stag_end - 2, el.stag_end, ">" + added + nl + f"</{el.tag}>"))
            else:
                repl.append((el.stag_end, el.stag_end, added))

    def _newline(self, text: str) -> str:
        """The line break a source text uses (looked up once per text)."""
        found = self.newlines.get(id(text))
        if found is None:
            found = self.newlines[id(text)] = "\r\n" if "\r\n" in text else "\n"
        return found

    def _pose_element(self, attrs: dict[str, str], x: Transform | None) -> str:
        values, extra = pose_text(x if x is not None else IDENTITY, self.degrees)
        attrs = {**extra, **attrs}
        return "<pose" + "".join(f' {k}="{escape_attr(v)}"' for k, v in attrs.items()) + f">{values}</pose>"

    def _pose(self, el, inertial_1_8: bool, ops=None) -> str | None:
        """The new text of a <pose> element, or None to keep it as written. ``ops``: what an
        ``<experimental:params>`` changes in it."""
        replaced = self.poses.get(id(el))
        if replaced is not None:  # resolved from the analysis, which applied the parameters
            keep = {
                k: a.value
                for k, a in el.attributes.items()
                if k not in ("relative_to", "degrees", "rotation_format", "frame")
            }
            if replaced.relative_to:
                keep["relative_to"] = replaced.relative_to
            return self._pose_element(keep, replaced.transform)
        attrs = {k: a.value for k, a in el.attributes.items()}
        body = el.text.strip()
        changed = False
        if ops is not None and (ops.attrs or ops.text is not None):
            attrs.update(ops.attrs)
            body = ops.text if ops.text is not None else body
            changed = True
        if self.degrees:
            found = degrees_of(attrs, body)
            if found is not None:
                (body, attrs), changed = found, True
        proxy = self.merge_rel.get(id(el))
        if proxy is not None:
            attrs = {k: v for k, v in attrs.items() if k != "relative_to"}
            attrs["relative_to"] = proxy
            changed = True
        if inertial_1_8 and el.parent is not None and el.parent.tag == "inertial" and attrs.get("relative_to") == "":
            attrs = {k: v for k, v in attrs.items() if k != "relative_to"}
            changed = True
        if not changed:
            return None
        return "<pose" + "".join(f' {k}="{escape_attr(v)}"' for k, v in attrs.items()) + f">{escape_text(body)}</pose>"


def _override_top_level(el, text: str, include, repl: list, nl: str) -> None:
    """An included <actor> or <light>: its name and pose as the include sets them (parser.cc:
    <name> renames it; <pose> replaces its pose, with the include's relative_to, degrees and
    rotation_format); <static>, <placement_frame> and plugins are for models only."""
    given = include.child("name")
    name = el.attr("name")
    if given is not None and name is not None:
        repl.append((name.value_span.start, name.value_span.end, escape_attr(given.text.strip())))
    pose = include.child("pose")
    if pose is None:
        return
    for child in el.children:
        if child.tag == "pose":
            repl.append((line_start(text, child.span.start), child.span.end, ""))
    attrs = "".join(
        f' {k}="{escape_attr(pose.get(k) or "")}"'
        for k in ("relative_to", "degrees", "rotation_format")
        if pose.get(k) is not None
    )
    added = nl + f"<pose{attrs}>{escape_text(pose.text.strip())}</pose>"
    if el.self_closing:
        repl.append((el.stag_end - 2, el.stag_end, ">" + added + nl + f"</{el.tag}>"))
    else:
        repl.append((el.stag_end, el.stag_end, added))
