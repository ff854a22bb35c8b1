"""The validation phases of the composition proposal (1.6.1 models, 1.6.2 worlds).

Each phase reports a root cause once. Nodes whose problem was already
reported are remembered in ``broken`` so that later phases (graph sinks,
poses) stay quiet about the consequences: one mistake, one diagnostic.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..diagnostics import Diagnostic, Fix, Related, Severity, error
from ..model import Frame, Joint, Model
from ..text import Span
from ..xml import XmlDocument, XmlElement
from .frames import WORLD, WORLD_SENTINEL, find_cycles, FrameGraphs, FrameNode, Resolution, Scope

_RESERVED = re.compile(r"^__.*__$")
_FRAME_TAGS = {"link", "joint", "frame", "model"}
_NO_NAME_CHECK = {"plugin"}


_UNKNOWN = "unknown_reference"  # data key of a diagnostic about a reference that may lead into an unloaded include


def _where(scope: Scope) -> str:
    return f"{scope.kind} '{scope.name}'" if scope.name else f"this {scope.kind}"


# libsdformat checks joint parents, the links a joint's frames resolve to, axis frames, mimic joints and
# canonical_link names (checkJointParentChildNames, checkJointAxis*Values, checkCanonicalLinkNames) only
# for the root model, the models directly in a world and the world itself, never in nested models. A
# problem found only by those checks is tagged so that an includer can tell where it applies.
ROOT_ONLY = "root_only"
# a problem of the root model that exists only because it is not static (an <include> can make it static)
ROOT_NOT_STATIC = "root_not_static"

_NESTED_NOTE = " (libsdformat checks this only in top-level models, so it loads the file; {consequence})"
_UNRESOLVED = "but the {what} cannot be resolved as written"


def top_level_scope(scope: Scope | None) -> bool:
    """Where libsdformat's top-level checks reach: the root model, a world, a model directly in a world."""
    return scope is None or scope.kind == "world" or scope.parent is None or scope.parent.kind == "world"


def _suggest(text: str, candidates: Iterable[str]) -> str | None:
    pool = [c for c in candidates if c and c != text]
    import difflib  # only when a name is wrong: not a cost of every start-up

    best = difflib.get_close_matches(text, pool, n=1, cutoff=0.6)
    return best[0] if best else None


class Checker:
    def __init__(self, xml: XmlDocument, graphs: FrameGraphs, version: tuple[int, int]) -> None:
        self.xml = xml
        self.g = graphs
        self.version = version
        self.out: list[Diagnostic] = []
        self.broken: set[int] = set()  # ids of nodes whose own problem was reported
        # nodes written in an included file are checked in that file's own analysis and reported once,
        # on the <include>: here they are only quiet links of chains (never reported, never blamed)
        self.nodes = [n for n in graphs.nodes if n.scope is None or n.scope.path is None]
        self.broken.update(id(n) for n in graphs.nodes if n.scope is not None and n.scope.path is not None)

    # -- helpers -------------------------------------------------------

    def _mark(self, node: FrameNode | None) -> None:
        if node is not None:
            self.broken.add(id(node))

    def _unknown(self, res: Resolution) -> bool:
        """Might the reference lead into an include that could not be loaded? Then it is not judged:
        what is unknown stays unknown (the include has its own diagnostic)."""
        where = res.missing_in or res.scope
        holes = self.g.holes.get(id(where)) if where is not None else None
        if not holes:
            return False
        ref = res.ref
        failed = ref.text
        for start, end, obj in res.segments:
            if obj is None:
                failed = ref.text[start - ref.span.start : end - ref.span.start]
                break
        return any(inc.merge or not inc.name or inc.name == failed for inc in holes)

    def _hole_model(self, node: FrameNode | None) -> bool:
        """A model whose content is partly unknown (an include in it could not be loaded)."""
        return node is not None and node.kind == "model" and node.inner is not None and bool(self.g.holes.get(id(node.inner)))

    def _bad_ref(self, code: str, res: Resolution, what: str, candidates: Iterable[str] | None = None) -> Diagnostic:
        """A diagnostic for a reference that did not resolve, with a suggestion when one fits; one marked
        unknown (dropped at the end, its node still marked) when it may lead into an include not loaded."""
        ref = res.ref
        scope = res.scope
        if res.problem not in ("reserved", "empty") and self._unknown(res):
            return error(code, "unknown", ref.span, data={_UNKNOWN: True})
        if res.problem == "reserved":
            return error("ATTRIBUTE_INVALID", f"'__root__' is reserved and cannot be used in {what}; name a frame of {_where(scope)}", ref.span)
        if res.problem == "empty":
            return error(code, f"{what} is empty: name a frame of {_where(scope)}", ref.span)
        if candidates is None:
            candidates = [n for n, node in scope.nested_frames()]
        # point at the segment that failed
        span = ref.span
        failed = ref.text
        for start, end, obj in res.segments:
            if obj is None:
                span, failed = Span(start, end), ref.text[start - ref.span.start : end - ref.span.start]
                break
        where = res.missing_in or scope
        if where is not scope:
            msg = f"{what} is '{ref.text}', but {_where(where)} has no frame '{failed}'"
        elif "::" in ref.text and span != ref.span:
            msg = f"{what} is '{ref.text}', but {_where(scope)} has no nested model '{failed}'"
        else:
            msg = f"{what} is '{ref.text}', which is not a frame in {_where(scope)}"
        if ref.text == WORLD and scope.kind == "model":
            msg += " ('world' can only be a joint's parent inside a model)"
        outer = scope.parent
        while outer is not None and ref.text not in outer.frames:
            outer = outer.parent
        if outer is not None:
            return error(
                code,
                msg + f"; '{ref.text}' belongs to the enclosing {_where(outer)}, and references cannot reach outside "
                "the model they are written in: move the element, or refer to a frame of this model",
                ref.span,
            )
        hint = _suggest(ref.text, candidates)
        fixes: tuple[Fix, ...] = ()
        if hint is not None:
            msg += f"; did you mean '{hint}'?"
            fixes = (Fix(f"Change to '{hint}'", ref.span, hint),)
        elif scope.kind == "model" and scope.parent is not None and "::" not in ref.text:
            msg += " (references cannot reach frames outside the model they are written in)"
        return error(code, msg, ref.span, fixes=fixes, data={"suggestion": hint} if hint else {})

    def _top_only(self, d: Diagnostic, scope: Scope | None, what: str, consequence: str | None = None) -> Diagnostic:
        """``d`` from a check libsdformat makes only at the top level: an error there, a warning in nested models."""
        if top_level_scope(scope):
            return Diagnostic(d.code, d.severity, d.message, d.span, d.related, d.fixes, d.path, {**d.data, ROOT_ONLY: True})
        note = _NESTED_NOTE.format(consequence=consequence or _UNRESOLVED.format(what=what))
        return Diagnostic(d.code, Severity.WARNING, d.message + note, d.span, d.related, d.fixes, d.path, d.data)

    # -- phase 2: names ------------------------------------------------

    def names(self) -> None:
        root = self.xml.root
        if root is None:
            return
        stack = [root]
        while stack:  # plugin contents and namespaced elements are free-form: not ours to judge
            el = stack.pop()
            if len(el.children) >= 2:
                self._unique_children(el)
            # leaves have no children to compare; ':' in a tag is a namespace prefix
            stack.extend(c for c in el.children if c.children and c.tag not in _NO_NAME_CHECK and ":" not in c.tag)
        for node in self.nodes:
            if node.kind == "world" or node.entity is None:
                continue
            self._reserved(node)

    def _unique_children(self, el: XmlElement) -> None:
        seen: dict[str, XmlElement] = {}
        for c in el.children:
            if c.tag in _NO_NAME_CHECK or ":" in c.tag:
                continue
            a = c.attributes.get("name")
            if a is None or not a.value:
                continue
            other = seen.get(a.value)
            if other is None:
                seen[a.value] = c
                continue
            scope_what = f"<{el.tag} name='{el.get('name')}'>" if el.get("name") else f"<{el.tag}>"
            code = "DUPLICATE_NAME"
            if other.tag == c.tag:
                msg = f"{scope_what} already has a <{c.tag}> named '{a.value}': sibling names must be unique; rename one of them"
            else:
                if not (self.version >= (1, 7) and {c.tag, other.tag} <= _FRAME_TAGS):
                    code = "PARSING_ERROR"  # what `gz sdf --check` reports for siblings of different types
                msg = (
                    f"'{a.value}' names both a <{other.tag}> and a <{c.tag}> in {scope_what}: "
                    "siblings must have distinct names, whatever their type; rename one of them"
                )
            oa = other.attr("name")
            self.out.append(
                error(
                    code,
                    msg,
                    a.value_span,
                    related=(Related(oa.value_span if oa else other.tag_span, f"the other '{a.value}'"),),
                    data={"duplicate": a.value},
                )
            )

    def _reserved(self, node: FrameNode) -> None:
        name = node.name
        span = node.name_span
        if span is None:
            return  # the missing attribute was reported by the model builder
        kind = node.kind
        if not name:
            self.out.append(error("RESERVED_NAME", f"the {kind} has an empty name: give it a name", span))
        elif name == WORLD and (node.scope is not None):
            self.out.append(error("RESERVED_NAME", f"'world' is reserved for the world frame and cannot name a {kind}: rename it", span))
        elif _RESERVED.match(name):
            self.out.append(error("RESERVED_NAME", f"names of the form __name__ are reserved for implicit frames: rename this {kind}", span))
        elif "::" in name and self.version >= (1, 8):
            self.out.append(
                error("RESERVED_NAME", f"'::' separates scopes and cannot appear in a {kind} name: rename '{name}'", span)
            )
        else:
            return
        self._mark(node)

    # -- phase 3: joints -----------------------------------------------

    def joints(self) -> None:
        for node in self.nodes:
            if node.kind != "joint":
                continue
            joint: Joint = node.entity
            scope = node.scope
            assert scope is not None
            p = self.g.resolution(joint.parent)
            c = self.g.resolution(joint.child)
            bad = False
            if c is not None:
                if joint.child.text == WORLD:
                    self.out.append(error("JOINT_CHILD_LINK_INVALID", f"joint '{joint.name}' cannot have 'world' as its child: the world is fixed; swap <parent> and <child>", c.ref.span))
                    bad = True
                elif c.target is node:
                    self.out.append(error("JOINT_CHILD_LINK_INVALID", f"joint '{joint.name}' names itself as its child: name the link or frame it moves", c.ref.span))
                    bad = True
                elif c.target is None:
                    self.out.append(self._bad_ref("JOINT_CHILD_LINK_INVALID", c, f"child of joint '{joint.name}'", self._link_names(scope, node)))
                    bad = True
                elif self.version < (1, 8) and c.target.kind != "link":
                    self.out.append(error("JOINT_CHILD_LINK_INVALID", f"the child of joint '{joint.name}' must be a link before SDFormat 1.8, but '{c.ref.text}' is a {c.target.kind}", c.ref.span))
                    bad = True
            if p is not None:
                top = top_level_scope(scope)
                if p.target is node or p.ref.text == joint.name:
                    msg = (f"joint '{joint.name}' names itself as its parent: name a link, a frame or 'world'" if p.target is node
                           else f"joint '{joint.name}' has the name of its parent '{p.ref.text}': rename the joint")
                    d = error("JOINT_PARENT_LINK_INVALID", msg, p.ref.span)
                    self.out.append(self._top_only(d, scope, "joint's parent"))
                    bad = bad or top
                elif p.target is None:
                    d = self._bad_ref("JOINT_PARENT_LINK_INVALID", p, f"parent of joint '{joint.name}'", [*self._link_names(scope, node), WORLD])
                    self.out.append(self._top_only(d, scope, "joint's parent"))
                    bad = bad or top
                elif self.version < (1, 8) and p.target is not WORLD_SENTINEL and p.target.kind not in ("link", "world"):
                    self.out.append(error("JOINT_PARENT_LINK_INVALID", f"the parent of joint '{joint.name}' must be a link before SDFormat 1.8, but '{p.ref.text}' is a {p.target.kind}", p.ref.span))
                    bad = True
            if bad:
                self._mark(node)
                continue
            if p is None or c is None:
                self._mark(node)
                continue
            if p.ref.text == c.ref.text:
                self.out.append(error("JOINT_PARENT_SAME_AS_CHILD", f"joint '{joint.name}' has '{c.ref.text}' as both parent and child: a joint connects two different links", c.ref.span, related=(Related(p.ref.span, "the parent"),)))
                self._mark(node)
                continue
            if p.target is None or p.target is WORLD_SENTINEL or p.target.kind == "world":
                continue
            pl, cl = self.g.attached_link(p.target), self.g.attached_link(c.target)
            if pl is not None and pl is cl:
                d = error(
                    "JOINT_PARENT_SAME_AS_CHILD",
                    f"the parent '{p.ref.text}' and child '{c.ref.text}' of joint '{joint.name}' are both attached to link "
                    f"'{pl.scoped_name()}': a joint must connect two different links",
                    c.ref.span,
                    related=(Related(p.ref.span, "the parent"),),
                )
                self.out.append(self._top_only(d, scope, "joint", "the joint cannot move anything"))
                if top_level_scope(scope):
                    self._mark(node)

    def _link_names(self, scope: Scope, joint: FrameNode | None = None) -> list[str]:
        """What a joint's parent or child may name: links only before 1.8; any frame after (a link, a frame,
        a model, another joint), never the joint itself."""
        kinds = ("link",) if self.version < (1, 8) else ("link", "frame", "model", "joint")
        return [n for n, node in scope.nested_frames() if node.kind in kinds and node is not joint]

    def _targets(self, scope: Scope, node: FrameNode, attr: str) -> list[str]:
        """Names ``node``'s ``attr`` (attached_to, relative_to) could take without making a cycle:
        a suggestion must make the reference valid."""
        out = []
        for name, target in scope.nested_frames():
            cur, steps = target, 0
            while cur is not None and cur is not node and steps < 64:
                cur = getattr(cur, attr)
                steps += 1
            if cur is not node:
                out.append(name)
        return out

    # -- phase 4: canonical links and placement frames -----------------

    def models(self) -> None:
        for node in self.nodes:
            if node.kind != "model":
                continue
            model: Model = node.entity
            scope = node.inner
            assert scope is not None
            if scope.path is not None:
                if not node.static and not scope.links_order and not any(scope.models_order):
                    self._mark(node)  # a model without link: reported on its include (by its file, or for <static>false)
                continue  # an included model: its canonical link and placement frame belong to its file
            cref = model.canonical_link
            if cref is not None and cref.text:
                res = self.g.resolution(cref) or self.g.resolve(cref, scope)
                links = [n for n, x in scope.nested_frames() if x.kind == "link"]
                top = top_level_scope(scope)  # the model's own scope: the root, or a model directly in a world
                if res.target is None:
                    d = self._bad_ref("MODEL_CANONICAL_LINK_INVALID", res, f"canonical_link of model '{model.name}'", links)
                    if node.static:  # the frame graph ignores it; only the top-level name check sees it
                        d = self._top_only(d, scope, "canonical link")
                    self.out.append(d)
                    if d.is_error:
                        self._mark(node)
                elif res.target.kind != "link":
                    d = error("MODEL_CANONICAL_LINK_INVALID", f"canonical_link of model '{model.name}' must name a link, but '{cref.text}' is a {res.target.kind}", cref.span)
                    self.out.append(self._top_only(d, scope, "canonical link", "libsdformat attaches the model to that frame"))
                    if top:
                        self._mark(node)
            elif not node.static and not scope.links_order and not any(scope.models_order) and not model.includes:
                span = model.name_span or model.element.tag_span
                self.out.append(
                    error(
                        "MODEL_WITHOUT_LINK",
                        f"model '{model.name}' has no link, so nothing can carry its frames: add a <link>, a nested model with a link, or <static>true</static>",
                        span,
                        data={ROOT_NOT_STATIC: True} if node.scope is None else {},
                    )
                )
                self._mark(node)
            pf = model.placement_frame
            if pf is not None and pf.text:
                res = self.g.resolve(pf, scope)
                if res.target is None:
                    self.out.append(self._bad_ref("POSE_RELATIVE_TO_INVALID", res, f"placement_frame of model '{model.name}'"))

    # -- phases 5-6: attached_to ---------------------------------------

    def attached_to(self) -> None:
        reported_cycles: set[int] = set()
        for node in self.nodes:
            if node.kind != "frame":
                continue
            frame: Frame = node.entity
            ref = frame.attached_to
            if ref is None or not ref.text:
                continue
            res = self.g.resolution(ref)
            if res is None:
                continue
            if ref.text == node.name and node.scope is res.scope:
                self.out.append(error("FRAME_ATTACHED_TO_CYCLE", f"frame '{node.name}' is attached to itself: name a link, joint, frame or model it moves with", ref.span))
                self._mark(node)
                reported_cycles.add(id(node))
            elif res.target is None:
                self.out.append(self._bad_ref("FRAME_ATTACHED_TO_INVALID", res, f"attached_to of frame '{node.name}'", self._targets(res.scope, node, "attached_to")))
                self._mark(node)
        quiet_nodes: set[int] = set()
        for cycle in find_cycles(self.g.nodes, lambda n: n.attached_to):
            ids = {id(n) for n in cycle}
            if ids & reported_cycles:
                continue
            reported_cycles |= ids
            if ids <= self.broken:
                continue  # e.g. a joint naming itself as its child: already reported
            self._cycle("FRAME_ATTACHED_TO_CYCLE", "attached_to", cycle, lambda n: n.attached_ref)
        for node in self.nodes:
            if node.kind == "world" or id(node) in self.broken or id(node) in reported_cycles:
                continue
            if self.g.attached_link(node) is not None:
                continue
            # find the end of the chain; stay quiet if it runs into a reported problem
            cur, seen, quiet = node, set(), False
            path: list[FrameNode] = []
            while cur is not None and id(cur) not in seen:
                if id(cur) in self.broken or id(cur) in reported_cycles or id(cur) in quiet_nodes:
                    quiet = True
                    break
                seen.add(id(cur))
                path.append(cur)
                if cur.attached_to is None:
                    break
                cur = cur.attached_to
            if quiet:
                quiet_nodes.update(id(n) for n in path)  # later walks stop here: linear overall
                continue
            if cur is None or id(cur) in seen and cur.attached_to is not None:
                continue
            if cur is node and node.kind == "joint":
                continue  # its child problem was reported (or it has none)
            if self._hole_model(cur):
                quiet_nodes.update(id(n) for n in path)
                continue  # its canonical link may be in the include that could not be loaded
            span = _node_span(node)
            self.out.append(
                error(
                    "FRAME_ATTACHED_TO_GRAPH_ERROR",
                    f"{node.kind} '{node.name}' is not attached to any link: its attached_to chain ends at {cur.kind} '{cur.name}', "
                    "which is neither a link nor a static model",
                    span,
                )
            )
            self._mark(node)

    def _cycle(self, code: str, attr: str, cycle: list[FrameNode], ref_of) -> None:
        members = sorted(cycle, key=lambda n: (ref_of(n).span.start if ref_of(n) is not None else 1 << 60))
        first = members[0]
        ref = ref_of(first)
        if len(cycle) <= 8:
            names = " -> ".join(n.name for n in [*cycle, cycle[0]])
        else:
            names = " -> ".join(n.name for n in cycle[:4]) + f" -> ... -> {cycle[-1].name} -> {cycle[0].name} ({len(cycle)} frames)"
        span = ref.span if ref is not None else (first.name_span or Span(0, 0))
        related = tuple(
            Related(ref_of(n).span, f"{n.kind} '{n.name}' {attr} '{ref_of(n).text}'")
            for n in members
            if ref_of(n) is not None
        )
        self.out.append(error(code, f"{attr} cycle: {names}; break the cycle by pointing one of these at a link or __model__", span, related=related))
        for n in cycle:
            self._mark(n)

    # -- phases 7-8: relative_to ---------------------------------------

    def relative_to(self) -> None:
        reported: set[int] = set()
        for node in self.nodes:
            entity = node.entity
            pose = getattr(entity, "pose", None)
            if node.kind == "world" or pose is None or pose.relative_to is None or not pose.relative_to.text:
                continue
            ref = pose.relative_to
            if node.scope is None:
                self.out.append(
                    error(
                        "ATTRIBUTE_INVALID",
                        f"the pose of the top-level model '{node.name}' cannot have relative_to: there is no enclosing frame; remove the attribute",
                        ref.span,
                    )
                )
                continue
            res = self.g.resolution(ref)
            if res is None:
                continue
            if res.target is node or (ref.text == node.name and res.scope is node.scope and node.kind != "model"):
                self.out.append(error("POSE_RELATIVE_TO_CYCLE", f"the pose of {node.kind} '{node.name}' is relative to itself: name another frame", ref.span))
                self._mark(node)
                reported.add(id(node))
            elif res.target is None:
                self.out.append(self._bad_ref("POSE_RELATIVE_TO_INVALID", res, f"relative_to of {node.kind} '{node.name}'", self._targets(res.scope, node, "relative_to")))
                self._mark(node)
        quiet_nodes: set[int] = set()
        for cycle in find_cycles(self.g.nodes, lambda n: n.relative_to):
            ids = {id(n) for n in cycle}
            if ids & reported:
                continue
            reported |= ids
            if ids & self.broken and len(ids & self.broken) == len(ids):
                continue  # an attached_to cycle already explains it
            self._cycle("POSE_RELATIVE_TO_CYCLE", "relative_to", cycle, lambda n: n.relative_ref)
        resolves: dict[int, bool] = {}
        for node in self.nodes:
            if id(node) in self.broken or id(node) in reported or node.kind == "world":
                continue
            if self.g.pose_resolves(node, resolves):
                continue
            cur, seen, quiet = node, set(), False
            path: list[FrameNode] = []
            while cur is not None and id(cur) not in seen:
                if id(cur) in self.broken or id(cur) in reported or id(cur) in quiet_nodes:
                    quiet = True
                    break
                seen.add(id(cur))
                path.append(cur)
                cur = cur.relative_to
            if quiet:
                quiet_nodes.update(id(n) for n in path)
                continue
            span = _node_span(node)
            self.out.append(error("POSE_RELATIVE_TO_GRAPH_ERROR", f"the pose of {node.kind} '{node.name}' cannot be resolved to {_where(self.g.root)}", span))
            self._mark(node)

    def inner_poses(self) -> None:
        """libsdformat loads these without checking them; the simulator then cannot place the element."""
        for ref, scope in self.g.inner_poses:
            if scope.path is not None:
                continue
            res = self.g.resolution(ref)
            if res is not None and res.target is None:
                d = self._bad_ref("POSE_RELATIVE_TO_INVALID", res, f"relative_to of this <{ref.element.parent.tag if ref.element.parent else 'pose'}> pose")
                self.out.append(Diagnostic(d.code, Severity.WARNING, d.message + " (libsdformat loads the file, but cannot resolve this pose)", d.span, d.related, d.fixes, d.path, d.data))

    # -- joint axes ----------------------------------------------------

    def axes(self) -> None:
        for node in self.nodes:
            if node.kind != "joint":
                continue
            joint: Joint = node.entity
            scope = node.scope
            for ref in joint.expressed_in:
                if not ref.text:
                    continue
                res = self.g.resolve(ref, scope)
                if res.target is None:
                    d = self._bad_ref("JOINT_AXIS_EXPRESSED_IN_INVALID", res, f"expressed_in of the axis of joint '{joint.name}'")
                    self.out.append(self._top_only(d, scope, "axis"))
            for ref in joint.mimics:
                res = self.g.resolve(ref, scope)
                d = None
                if res.target is None or res.target.kind != "joint":
                    joints = [n for n, x in scope.nested_frames() if x.kind == "joint" and x is not node]
                    if res.target is not None:
                        d = error("JOINT_AXIS_MIMIC_INVALID", f"mimic joint '{ref.text}' of joint '{joint.name}' is a {res.target.kind}, not a joint", ref.span)
                    else:
                        d = self._bad_ref("JOINT_AXIS_MIMIC_INVALID", res, f"mimic joint of joint '{joint.name}'", joints)
                elif res.target is node:
                    d = error("JOINT_AXIS_MIMIC_INVALID", f"joint '{joint.name}' cannot mimic itself: name another joint", ref.span)
                if d is not None:
                    self.out.append(self._top_only(d, scope, "mimic joint"))

    def run(self, names: bool = True) -> list[Diagnostic]:
        if names:
            self.names()
        self.joints()
        self.models()
        self.attached_to()
        self.relative_to()
        self.axes()
        self.inner_poses()
        return [d for d in self.out if not d.data.get(_UNKNOWN)]


def _node_span(node: FrameNode) -> Span:
    """Where to report a problem of ``node``: its name, else its element (an included model: the <include>)."""
    if node.name_span is not None:
        return node.name_span
    inc = getattr(node.entity, "from_include", None)
    if inc is not None:
        return inc.element.tag_span
    return node.entity.element.tag_span


def check(xml: XmlDocument, graphs: FrameGraphs, version: tuple[int, int], names: bool = True) -> list[Diagnostic]:
    """Every phase over ``graphs``; ``names=False`` leaves out the name phase (done elsewhere)."""
    return Checker(xml, graphs, version).run(names)


