"""The document as the analysis sees it, written out: ``sdformat-lsp print`` (``gz sdf -p``).

- Includes are expanded: each ``<include>`` becomes the ``<model>`` it brings in, named as the
  include names it, with its ``<static>`` as the include sets it, and placed where libsdformat
  places it: its ``<pose>`` is the resolved pose of the model frame relative to the parent
  model (or the world), so a ``placement_frame`` has been applied and is dropped.
- The ``version`` becomes the newest SDFormat (or the one asked for). From 1.8 on the versions
  differ in nothing a document has to change; from 1.7 the only rule that applies to documents
  is dropping an empty ``relative_to`` of an inertial pose (``unflatten``, for ``::`` names that
  old tools wrote into worlds, is refused); from 1.6, ``<pose frame>`` becomes ``relative_to``
  and ``<use_parent_model_frame>`` becomes ``<xyz expressed_in="__model__">`` (libsdformat's
  ``1_6.convert``). Older documents are refused: ``1_5.convert`` and earlier are not implemented.
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

from ...formatting import FormatRefused, format_text
from ...model.builder import version_tuple
from ...model.transform import Transform
from ...semantics.collector import collector_paused
from ...text import Span
from .poses import degrees_of, pose_text, resolved

LATEST = "1.12"
_OLDEST_CONVERTED = (1, 6)


@dataclass
class PrintRefused(Exception):
    message: str
    span: Span
    path: str | None = None

    def __str__(self) -> str:
        return self.message


def _escape_text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _escape_attr(s: str) -> str:
    return _escape_text(s).replace('"', "&quot;")


def printed(analysis, version: str | None = None, resolve_poses: bool = False, degrees: bool = False) -> str:
    """The document of ``analysis`` (which must check without errors) as text."""
    with collector_paused():
        return _printed(analysis, version, resolve_poses, degrees)


def _printed(analysis, version: str | None, resolve_poses: bool, degrees: bool) -> str:
    graphs = analysis.graphs
    root = analysis.xml.root
    if graphs is None or root is None:
        raise PrintRefused("there is no model or world to print", Span(0, 0))
    source = version_tuple(analysis.version)
    target = version or LATEST
    target_t = version_tuple(target)
    if target_t < source or target_t > version_tuple(LATEST) or target_t < (1, 0):
        raise PrintRefused(f"cannot print SDFormat {analysis.version} as {target}: choose a version from {analysis.version} to {LATEST}", root.tag_span)
    if source < _OLDEST_CONVERTED and target_t != source:
        raise PrintRefused(
            f"converting SDFormat {analysis.version} to {target} is not supported (only from 1.6 on); "
            f"print it as {analysis.version} with --version {analysis.version}",
            root.tag_span,
        )
    if resolve_poses and target_t < (1, 7):
        raise PrintRefused(
            f"--resolve-poses writes relative_to, which SDFormat has from 1.7 on: print as 1.7 or newer, not {target}", root.tag_span
        )
    if source < (1, 8) <= target_t:
        for el in root.iter():
            name = el.get("name") or ""
            if "::" in name and el.tag in ("link", "joint", "frame", "model"):
                raise PrintRefused(
                    f"'{name}' is a flattened name, which SDFormat 1.8 'unflattens' into nested models; print does not do "
                    f"that conversion: print it as {analysis.version} with --version {analysis.version}",
                    el.attr("name").value_span,
                )
    includes = _includes(graphs, source)
    poses = resolved(analysis) if resolve_poses else {}
    writer = _Writer(graphs, analysis.text, target, includes, poses, degrees, resolve_poses, unflatten=source < (1, 8) <= target_t)
    writer.frames_1_7 = source < (1, 7) <= target_t
    out = writer.run(root)
    if not writer.expanded:
        return out
    try:
        return format_text(out)  # included models come with their own file's indentation
    except FormatRefused:  # pragma: no cover - the splices of well-formed documents are well formed
        return out


def _includes(graphs, version) -> dict[int, object]:
    """id(<include> element) -> the scope of the model it brings in; refuses what cannot be expanded."""
    out = {}
    for inc, scope in graphs.included:
        where = inc.element.tag_span
        if inc.merge:
            raise PrintRefused('an <include merge="true"> cannot be expanded by print yet', where)
        model = scope.entity
        src = getattr(model, "source", None)
        if src is None or src.xml.root is None or src.xml.root.tag != "sdf":
            raise PrintRefused("only SDFormat files can be expanded by print (this include brings in a URDF or an actor)", where)
        if any(c.tag.endswith(":params") for c in inc.element.children):
            raise PrintRefused("an <include> with <experimental:params> cannot be expanded by print yet", where)
        out[id(inc.element)] = scope
    return out


class _Writer:
    """Splices the changes into the source text: what is not changed is copied as written."""

    def __init__(self, graphs, text, version, includes, poses, degrees, resolve, unflatten) -> None:
        self.graphs = graphs
        self.text = text
        self.version = version
        self.includes = includes
        self.poses = poses
        self.degrees = degrees
        self.resolve = resolve
        self.unflatten = unflatten
        self.expanded = False  # an include was expanded: the result is re-indented by the formatter
        self.frames_1_7 = False  # 1.6 to 1.7: pose@frame is relative_to, use_parent_model_frame is expressed_in
        self.newlines: dict[int, str] = {}

    def run(self, root) -> str:
        return '<?xml version="1.0" ?>\n' + self._render(root, self.text, None, top=True) + "\n"

    def _render(self, el, text: str, override, top: bool = False) -> str:
        """The source of ``el`` in ``text`` with every change inside it applied."""
        repl: list[tuple[int, int, str]] = []
        if top:
            v = el.attr("version")
            if v is not None:
                repl.append((v.value_span.start, v.value_span.end, _escape_attr(self.version)))
        if override is not None:
            self._override(el, text, override, repl)
        elif self.resolve and el.tag == "model":
            self._drop_attr(el, "placement_frame", text, repl)
        stack = list(reversed(el.children))
        while stack:
            d = stack.pop()
            tag = d.tag
            if tag == "plugin" or ":" in tag:
                continue  # someone else's content: as written
            if tag == "include":
                scope = self.includes.get(id(d))
                if scope is not None:
                    model = scope.entity
                    x = None
                    parent = scope.parent.node if scope.parent is not None else None
                    if parent is not None and scope.node is not None:
                        a, b = self.graphs.pose(parent), self.graphs.pose(scope.node)
                        if a is not None and b is not None:
                            x = a.inverse() * b
                    inner = self._render(model.element, model.source.text, {"name": model.name, "static": model.static, "pose": x})
                    self.expanded = True
                    repl.append((d.span.start, d.span.end, inner))
                continue
            if tag == "pose":
                new = self._pose(d)
                if new is not None:
                    repl.append((d.span.start, d.span.end, new))
                elif self.frames_1_7 and d.attr("frame") is not None:
                    a = d.attr("frame")
                    repl.append((a.name_span.start, a.name_span.end, "relative_to"))
                continue
            if self.frames_1_7 and tag in ("axis", "axis2") and d.parent is not None and d.parent.tag == "joint":
                self._axis_1_7(d, text, repl)
            if self.resolve:
                if tag == "model":
                    self._drop_attr(d, "placement_frame", text, repl)
                elif id(d) in self.poses and d.child("pose") is None:
                    p = self.poses[id(d)]
                    nl = self._newline(text)
                    indent = _indent_of(text, d.span.start)
                    pose = self._pose_element({"relative_to": p.relative_to or "__model__"}, p.transform)
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

    def _override(self, el, text, override, repl) -> None:
        """An included model: its name, static and pose as the include sets them."""
        name = el.attr("name")
        if name is not None:
            repl.append((name.value_span.start, name.value_span.end, _escape_attr(override["name"])))
        self._drop_attr(el, "placement_frame", text, repl)
        for child in el.children:
            if child.tag in ("pose", "static"):
                repl.append((_line_start(text, child.span.start), child.span.end, ""))
        nl = self._newline(text)
        added = ""
        if override["pose"] is not None:
            added += nl + self._pose_element({}, override["pose"])
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

    def _axis_1_7(self, axis, text: str, repl) -> None:
        """libsdformat's 1_6.convert: <use_parent_model_frame>true</use_parent_model_frame> becomes
        <xyz expressed_in="__model__">, and the element goes."""
        flag = axis.child("use_parent_model_frame")
        if flag is None:
            return
        repl.append((_line_start(text, flag.span.start), flag.span.end, ""))
        if flag.text.strip() not in ("true", "True", "TRUE", "1"):
            return
        xyz = axis.child("xyz")
        if xyz is None:
            repl.append((axis.stag_end, axis.stag_end, '<xyz expressed_in="__model__">0 0 1</xyz>'))
        elif xyz.attr("expressed_in") is None:
            at = xyz.ts + len(xyz.tag)
            repl.append((at, at, ' expressed_in="__model__"'))

    def _drop_attr(self, el, attr: str, text: str, repl) -> None:
        a = el.attr(attr)
        if a is not None:
            start = a.span.start
            while start > 0 and text[start - 1] in " \t\r\n":
                start -= 1
            repl.append((start, a.span.end, ""))

    def _pose_element(self, attrs: dict[str, str], x: Transform) -> str:
        values, extra = pose_text(x, self.degrees)
        attrs = {**extra, **attrs}
        return "<pose" + "".join(f' {k}="{_escape_attr(v)}"' for k, v in attrs.items()) + f">{values}</pose>"

    def _pose(self, el) -> str | None:
        """The new text of a <pose> element, or None to keep it as written."""
        replaced = self.poses.get(id(el))
        if replaced is not None:
            keep = {k: a.value for k, a in el.attributes.items() if k not in ("relative_to", "degrees", "rotation_format", "frame")}
            if replaced.relative_to:
                keep["relative_to"] = replaced.relative_to
            return self._pose_element(keep, replaced.transform)
        attrs = None
        body = None
        if self.degrees:
            found = degrees_of(el)
            if found is not None:
                body, attrs = found
        if self.unflatten and el.parent is not None and el.parent.tag == "inertial":
            rel = el.attr("relative_to")
            if rel is not None and rel.value == "":
                attrs = {k: v for k, v in (attrs or {k: a.value for k, a in el.attributes.items()}).items() if k != "relative_to"}
        if attrs is None:
            return None
        body = body if body is not None else el.text.strip()
        return "<pose" + "".join(f' {k}="{_escape_attr(v)}"' for k, v in attrs.items()) + f">{_escape_text(body)}</pose>"


def _indent_of(text: str, at: int) -> str:
    """The white space that starts the line holding offset ``at`` (a walk back over that line only)."""
    start = at
    while start > 0 and text[start - 1] not in "\r\n":
        start -= 1
    end = start
    while end < at and text[end] in " \t":
        end += 1
    return text[start:end]


def _line_start(text: str, at: int) -> int:
    """``at`` moved back over the spaces before it, and the line break before them when the line holds nothing else."""
    start = at
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    if start > 0 and text[start - 1] in "\r\n":
        start -= 1
        if start > 0 and text[start - 1 : start + 1] == "\r\n":
            start -= 1
        return start
    return at
