"""Diagnostics of an edited document without analysing all of it again.

SDFormat scopes are closed: nothing inside a ``<model>`` can name a frame
outside it (its own ``<pose relative_to>`` is read in the enclosing scope),
so a model that is a direct child of the world, or of the root model, is a
*unit* whose diagnostics come from its own text and from the few things of
the enclosing scope it can see. An edit inside one unit is re-checked by
analysing a small *excerpt*: the document's start tags down to the
enclosing element, that element's other children that are not units (world
frames, lights, joints, links of the root model...), in document order, and
the edited unit; then the unit's diagnostics in the excerpt before the edit
are exchanged for those after it, and everything after the unit is moved by
the length the edit added.

Every shortcut is refused (``None``: analyse in full) unless it can be
checked to hold, so the result always equals a full analysis
(``tests/core/test_incremental.py`` compares the two after every edit of long
random sequences):

* the document was analysed in full with the same options; it has one
  ``<world>`` (or a root ``<model>``), no XML problem, no suppression comment
  (and the edited unit neither had nor gets one), and no diagnostic in
  another file;
* an ``<include>`` that is a child of the enclosing element is a unit too
  (the model it brings is a closed scope, known by the name the include
  gives it), when every include of the document is such a child, loaded and
  not merged: its excerpt places the model again from the include cache
  (the file is not read again) and its ``<pose>``, ``<name>`` or
  ``<placement_frame>`` may change, not its ``<uri>``; a unit's own pose may
  be relative to another unit, which the excerpt then holds; included files
  changed since are the server's to notice (``Document.touch``: the next
  check is a full analysis);
* the edit lies after the unit's ``<`` and before its end tag, and the new
  unit is one well-formed ``<model>`` element (comments and markup inside
  it may change);
* a rename (the start tag's name changes) is taken when neither the old nor
  the new name is referenced outside the unit, the new name is no other
  child's of the scope, the old one was not shared, and every reference read
  in the scope resolves (an unresolved one's message names the nearest
  names, which a rename changes);
* the unit's own ``<pose>`` (read in the enclosing scope) may change, be
  commented out or given a ``relative_to``, when its references resolve in
  the excerpt to names no other child of the scope has (so they resolve to
  the same frames in the document);
* what another unit can see of this one does not change: if a reference
  written in another unit names it (``m0::marker`` in a sibling's pose), the
  unit's text may change only in its pose values;
* the excerpt explains the old diagnostics: every diagnostic the excerpt
  puts in the old unit is in the full analysis, and the excerpt's
  diagnostics elsewhere are the same before and after the edit (so the edit
  changed nothing the enclosing scope reports);
* an edit inside one of the scope's other children (``<physics>``,
  ``<scene>``, a light, a world frame or joint) is checked through an
  excerpt of that child, the children a unit's excerpt holds and the units
  its references name, when nothing names the child, its references all
  resolve in the excerpt to unshared names, and a new name obeys the rename
  rule; a ``<pose>`` value there needs the child alone;
* no diagnostic is aggregated across units (every one the excerpt reports
  in the unit points only into the unit), and every span kept from the old
  diagnostics lies wholly before or wholly after the edit.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cached_property
from enum import Enum
from typing import NamedTuple, NoReturn, Optional

from ..diagnostics import Diagnostic, Fix, Related
from ..text import LineIndex, Span
from ..xml import XmlDocument, XmlElement
from .analysis import Analysis, Options, analyze
from .checks.suppressions import MARK
from .frames import Scope

UNIT_TAG = "model"
_POSE_VALUE = re.compile(r"(<pose\b[^>]*>)[^<]*(</pose>)")
_CHUNK = 1 << 16
_VALUES = re.compile(r'"([^"]*)"|>([^<]*)<')  # attribute values and texts: the names a child may write


@dataclass
class Excerpt:
    """What the excerpt of one unit said: its diagnostics in the unit (at the unit's place in the document)
    and elsewhere, the start tags of the unit's own poses, the first names of the references in it."""

    start: int
    unit: str
    inside: list[Diagnostic]
    outside: Counter
    poses: list[str]
    names: set[str]
    texts: set[str]  # the references in the unit as written, and their first names (but the unit's own pose's)
    name: str | None = None  # the element's name attribute
    stag: int = 0  # the length of its start tag
    own: set[str] = field(default_factory=set)  # the first names of its own pose's references (read in the scope)
    own_resolved: bool = True  # they all resolve in the excerpt
    resolved: bool = True  # every reference in the element resolves in the excerpt
    context: tuple[tuple[int, int], ...] = ()  # the scope's other children it holds (see _norm)
    frames: tuple[str, ...] = ()  # the names in the enclosing scope under the element's name (ScopeFrames)
    held: list[Diagnostic] = field(default_factory=list)  # its diagnostics in the held children (document places)
    held_refs: dict[int, tuple[frozenset[str], bool]] = field(default_factory=dict)  # per held child: see Other


class ScopeFrames:
    """The names a reference read in the enclosing scope may take (``Scope.nested_frames``) grouped by the
    child of the scope they are in (their first segment): the nearest name a diagnostic suggests is taken
    from all of them, and an excerpt holds only a few children. Made from the full analysis's scope the
    first time a step needs them (made once, shared by the steps after it), with the entries the steps
    since have changed."""

    def __init__(
        self,
        scope: Scope,
        made: list[dict[str, list[str]]] | None = None,
        patched: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        self._scope = scope
        self._made: list[dict[str, list[str]]] = made if made is not None else []
        self.patched = patched or {}

    def _grouped(self) -> dict[str, list[str]]:
        if not self._made:
            grouped: dict[str, list[str]] = {}
            for n, _ in self._scope.nested_frames():
                grouped.setdefault(n.split("::", 1)[0], []).append(n)
            self._made.append(grouped)
        return self._made[0]

    def patch(self, old: str | None, new: str | None, names: tuple[str, ...]) -> ScopeFrames:
        """The names after the child named ``old`` is named ``new`` and holds ``names`` (its own included)."""
        patched = dict(self.patched)
        if old:
            patched[old] = ()
        if new:
            patched[new] = names
        return ScopeFrames(self._scope, self._made, patched)

    def rebased(self, scope: Scope) -> ScopeFrames:
        """The same names, made (if they are not yet) from ``scope``, a full analysis's of the text they
        describe, instead of the scope of the analysis they came from (see :func:`rebase`)."""
        if self._made:
            return ScopeFrames(scope, self._made, self.patched)
        return ScopeFrames(scope)

    def beyond(self, keys: frozenset[str], left_out: set[str]) -> tuple[str, ...]:
        """The names under the children named ``keys`` but those ``left_out``."""
        grouped = self._grouped()
        out: list[str] = []
        for k in sorted(keys - left_out):
            out.extend(self.patched[k] if k in self.patched else grouped.get(k, ()))
        return tuple(out)


class Unit(NamedTuple):
    """A model directly in the world or the root model: a closed scope checked through an excerpt."""

    start: int
    stag_end: int  # end of its start tag
    end: int
    name: str


class Other(NamedTuple):
    """Another child element of the enclosing element (a world frame, a light, a link of the root model)."""

    start: int
    end: int
    names: frozenset[str]  # the unit names its references start with
    resolves: bool  # whether they all resolve


class Refusal(Enum):
    """Why an incremental step was refused (the full analysis runs instead); the value is the
    number the step's checks had before they had names."""

    OTHER_PATH_OR_OPTIONS = 1
    TOO_LARGE = 2
    NOT_IN_ONE_CHILD = 3  # not inside one child of the scope
    NOT_IN_UNIT_BODY = 4  # the edit is not between the unit's start tag and its end tag
    SUPPRESSION_OR_INCLUDE = 5
    REFERENCED_UNIT_CHANGED = 6  # another unit names something in this one: only pose values may change
    NO_EXCERPT = 7
    SCOPE_VIEW_CHANGED = 8  # the unit's own pose (read in the enclosing scope) or what the scope reports changed
    UNEXPLAINED_DIAGNOSTIC = 9
    DIAGNOSTIC_ACROSS_EDIT = 10  # a kept diagnostic reaches across the edit
    MARKUP_CHANGED = 11
    NOT_A_POSE_VALUE = 12
    NAMES_A_SIBLING = 13  # a reference in the unit names a sibling: what is said about it depends on the siblings
    NAME_SEEN = (
        14  # a renamed child's old or new name is referenced, taken or duplicated, or a name in the scope is unresolved
    )
    OTHER_DEPENDED_ON = 15  # the edited child of the scope is named by a reference elsewhere, or its own do not resolve


@dataclass
class Base:
    """What an incremental step needs from the last result: plain offsets and diagnostics, no tree."""

    text: str
    path: str | None
    options: Options
    diagnostics: list[Diagnostic]
    head_end: int  # end of the enclosing element's start tag
    foot_start: int  # start of the enclosing element's end tag
    units: list[Unit]  # in order
    others: list[Other]  # the enclosing element's other child elements, in order
    referenced: frozenset[str]  # first names of the references written in units (other than the unit's own)
    scope_names: frozenset[str]  # the names of the scope's children (a reference's message says it is out of reach)
    outer_refs: frozenset[str] = frozenset()  # first names of the references written in the scope's other children
    duplicates: frozenset[str] = frozenset()  # names two or more of the scope's children have
    scope_resolves: bool = False  # every reference read in the enclosing scope resolves (no message names the nearest)
    last: Excerpt | None = None  # the last unit checked through an excerpt, as it is now
    units_resolve: bool = False  # every reference written in a unit and read in the scope (its pose's) resolves
    frames: ScopeFrames | None = None  # the scope's names, for the suggestions of a reference that fails


@dataclass
class QuickAnalysis:
    """The diagnostics of a revision checked incrementally: what publishing them needs (text, lines, path).
    The features ask for a full :class:`Analysis` of the same text when they need one."""

    text: str
    path: str | None
    diagnostics: list[Diagnostic]
    includes: list[object] = field(default_factory=list)
    _lines: LineIndex | None = None

    @property
    def lines(self) -> LineIndex:
        if self._lines is None or self._lines.text is not self.text:
            self._lines = LineIndex(self.text)
        return self._lines

    def included_analysis(self, path: str) -> None:
        return None


def base_of(analysis: Analysis, options: Options) -> Base | None:
    """The base for incremental steps after ``analysis`` (made with ``options``), or None when none may follow it."""
    xml = analysis.xml
    text = analysis.text
    if xml.root is None or xml.problems or xml.half_typed or analysis.document is None:
        return None
    if analysis.path is not None and analysis.path.endswith("model.config"):
        return None
    if MARK in text:
        return None
    if any(d.path is not None or any(r.path is not None for r in d.related) for d in analysis.diagnostics):
        return None
    root = xml.root
    if root.tag != "sdf":
        return None
    kids = root.children
    if len(kids) != 1 or kids[0].tag not in ("world", "model"):
        return None
    enclosing = kids[0]
    if enclosing.etag_start < 0:
        return None
    included = included_units(analysis, enclosing)
    if included is None:
        return None
    units: list[Unit] = []
    others: list[tuple[int, int]] = []
    unit_names = set()
    for c in enclosing.children:
        name = c.get("name") if c.tag == UNIT_TAG else included.get(id(c))
        if name and c.closed and c.etag_start >= 0:
            units.append(Unit(c.ts - 1, c.stag_end, c.end, name))
            unit_names.add(name)
        else:
            others.append((c.ts - 1, c.end))
    if not units:
        return None
    starts = [u.start for u in units]
    other_starts = [s for s, _ in others]
    other_refs: list[set[str]] = [set() for _ in others]
    other_ok = [True] * len(others)
    referenced: set[str] = set()
    outer: set[str] = set()
    scope_resolves = units_resolve = True
    graphs = analysis.graphs
    for r in own_resolutions(analysis):
        first = r.ref.text.split("::", 1)[0]
        at = r.ref.span.start
        fails = r.scope.parent is None and (r.target is None or r.problem is not None)
        if fails:
            scope_resolves = False
        i = bisect.bisect_right(starts, at) - 1
        if i >= 0 and at < units[i].end:
            if fails:
                units_resolve = False
            if units[i].name != first:
                referenced.add(first)
            continue
        outer.add(first)
        k = bisect.bisect_right(other_starts, at) - 1
        if k >= 0 and at < others[k][1]:
            if first in unit_names:
                other_refs[k].add(first)
            if r.target is None or r.problem is not None:
                other_ok[k] = False
    counts = Counter((c.get("name") if c.tag != "include" else included.get(id(c))) or "" for c in enclosing.children)
    return Base(
        text,
        analysis.path,
        options,
        list(analysis.diagnostics),
        enclosing.stag_end,
        enclosing.etag_start,
        units,
        [Other(s, e, frozenset(other_refs[k]), other_ok[k]) for k, (s, e) in enumerate(others)],
        frozenset(referenced),
        frozenset(counts) - {""},
        frozenset(outer),
        frozenset(n for n, c in counts.items() if c > 1 and n),
        scope_resolves,
        units_resolve=units_resolve,
        frames=ScopeFrames(graphs.root) if graphs is not None else None,
    )


def rebase(base: Base, analysis: Analysis) -> None:
    """``base`` is kept as the start of the next step although ``analysis``, a full analysis of the same
    text, is now the latest (the language server keeps the base its last step made: see the scheduler).
    Its names for suggestions are made from ``analysis``'s scope from now on: they held the scope of the
    analysis the first base of the chain was made from, and through it that analysis's frame graph, its
    model and most of its tree, long after it was replaced (bench_memory: the server at 2.1-2.4 times its
    size after the first analysis, for good)."""
    if base.frames is not None:
        graphs = analysis.graphs
        base.frames = base.frames.rebased(graphs.root) if graphs is not None else None


def included_units(analysis: Analysis, enclosing: XmlElement) -> dict[int, str] | None:
    """The names of the ``<include>``s that are children of ``enclosing`` (by id of their element), each a
    closed scope like a model child; None when an include is not one: merged into its scope, written
    elsewhere (inside a model: that model's excerpt would read it), not loaded (what it brings is not
    known), or so many that the document's limit on included instances may be reached."""
    graphs = analysis.graphs
    if not analysis.includes:
        return {}
    limit = analysis.options.max_included_instances if analysis.options is not None else 0
    if graphs is None or len(graphs.included) >= limit:
        return None
    names: dict[int, str] = {}
    for inc, scope in graphs.included:
        el = inc.element
        if el.parent is enclosing:
            if inc.merge or not scope.name:
                return None
            names[id(el)] = scope.name
    loaded = [r for r in analysis.includes if r.include.element.parent is enclosing and r.analysis is not None]
    if len(names) != len(loaded) or len(analysis.includes) != len(loaded):
        return None
    return names


def own_resolutions(analysis: Analysis) -> list:
    """The frame graphs' resolutions of references written in this document (those of included files,
    with places in their own files, left out)."""
    graphs = analysis.graphs
    if graphs is None:
        return []
    if not analysis.includes:
        return graphs.resolutions
    root = analysis.xml.root
    out = []
    for r in graphs.resolutions:
        el = r.ref.element
        while el.parent is not None:
            el = el.parent
        if el is root:
            out.append(r)
    return out


_URI = re.compile(r"<uri\b[^>]*>([^<]*)</uri>")


def _uri(unit: str) -> list[str]:
    """The ``<uri>`` texts of an element: an include that reads another file is another unit."""
    return _URI.findall(unit)


def changed_region(old: str, new: str) -> tuple[int, int, int]:
    """``(a, old_end, new_end)``: ``old[a:old_end]`` became ``new[a:new_end]``, the rest is equal.
    Compared a chunk at a time (C comparisons), then in halves of the chunk that differs: a character at
    a time, the last chunk took up to 65,536 steps of the interpreter (5-10 ms on a 100,000-line world)."""
    n = min(len(old), len(new))
    a = 0
    while a + _CHUNK <= n and old[a : a + _CHUNK] == new[a : a + _CHUNK]:
        a += _CHUNK
    step = _CHUNK
    while step:
        if a + step <= n and old[a : a + step] == new[a : a + step]:
            a += step
        else:
            step //= 2
    m = n - a  # the common suffix may not overlap the common prefix
    lo, ln = len(old), len(new)
    b = 0
    while b + _CHUNK <= m and old[lo - b - _CHUNK : lo - b] == new[ln - b - _CHUNK : ln - b]:
        b += _CHUNK
    step = _CHUNK
    while step:
        if b + step <= m and old[lo - b - step : lo - b] == new[ln - b - step : ln - b]:
            b += step
        else:
            step //= 2
    return a, lo - b, ln - b


def _key(d: Diagnostic) -> tuple:
    return (d.code, d.severity, d.message, d.span, d.related, d.fixes, d.path, repr(sorted(d.data.items())))


def _moved(d: Diagnostic, by: int) -> Diagnostic:
    if by == 0:
        return d
    return replace(
        d,
        span=Span(d.span.start + by, d.span.end + by),
        related=tuple(Related(Span(r.span.start + by, r.span.end + by), r.message, r.path) for r in d.related),
        fixes=tuple(Fix(f.title, Span(f.span.start + by, f.span.end + by), f.new_text) for f in d.fixes),
        data=dict(d.data),
    )


def _spans(d: Diagnostic):
    yield d.span
    for r in d.related:
        yield r.span
    for f in d.fixes:
        yield f.span


def _within(d: Diagnostic, lo: int, hi: int) -> bool:
    """Whether every place ``d`` names lies in this document, in ``[lo, hi]``."""
    return (
        d.path is None
        and all(r.path is None for r in d.related)
        and all(lo <= s.start and s.end <= hi for s in _spans(d))
    )


def _skeleton(unit: str) -> str:
    return _POSE_VALUE.sub(r"\1\2", unit)


def _unit_context(base: Base, i: int) -> list[tuple[int, int]]:
    """The scope's other children that the excerpt of unit ``i`` holds: all but those whose references all
    resolve and all name other units (an edit in this unit cannot change what is said about them)."""
    name = base.units[i].name
    return [(o.start, o.end) for o in base.others if not (o.resolves and o.names and name not in o.names)]


_REFERENCE = re.compile(r'(?:relative_to|attached_to)\s*=\s*"([^"]*)"')


def _named_units(base: Base, i: int, texts: str) -> list[tuple[int, int]]:
    """The other units that a reference in ``texts`` (the unit before and after the edit) starts with: the
    unit's own pose may be relative to a sibling (an include placed relative to a model), which the excerpt
    then holds, so that it resolves there as in the document (any other reference to a sibling is refused)."""
    first = {m.group(1).split("::", 1)[0] for m in _REFERENCE.finditer(texts)}
    return [(u.start, u.end) for k, u in enumerate(base.units) if k != i and u.name in first]


def _excerpt(
    base: Base,
    start: int,
    unit: str,
    tag: str,
    parts: list[tuple[int, int]],
    options: Options,
    held: frozenset[tuple[int, int]] = frozenset(),
) -> Excerpt | None:
    """Analyse the excerpt holding ``unit`` (at ``start`` in the document) and the scope's children ``parts``
    (from ``base.text``: an edit inside the unit leaves them as they were), or None when the unit is not one
    clean ``<tag>`` element in its scope. What it says in the ``held`` parts is returned apart, at their
    places in ``base.text``."""
    text = base.text
    parts = sorted(parts)
    before = [text[s:e] for s, e in parts if e <= start]
    after = [text[s:e] for s, e in parts if s >= start]
    head = text[: base.head_end] + "\n" + "\n".join(before) + "\n"
    excerpt = head + unit + "\n" + "\n".join(after) + "\n" + text[base.foot_start :]
    placed: list[tuple[int, int, int]] = []  # (place in the excerpt, its end, place in base.text) of held parts
    for at, side in (
        (base.head_end + 1, [p for p in parts if p[1] <= start]),
        (len(head) + len(unit) + 1, [p for p in parts if p[0] >= start]),
    ):
        for s, e in side:
            if (s, e) in held:
                placed.append((at, at + e - s, s))
            at += e - s + 1
    a = analyze(excerpt, base.path, options)
    xml: XmlDocument = a.xml
    if xml.problems or xml.half_typed or xml.root is None or len(xml.root.children) != 1:
        return None
    names_of = included_units(a, xml.root.children[0]) if a.includes else {}
    if names_of is None or any(d.path is not None or any(r.path for r in d.related) for d in a.diagnostics):
        return None  # an include the document does not take as a unit, or a problem in an included file
    lo, hi = len(head), len(head) + len(unit)
    found = [c for c in xml.root.children[0].children if c.ts - 1 >= lo and c.end <= hi]
    el = found[0] if len(found) == 1 else None
    if el is None or el.tag != tag or el.ts - 1 != lo or el.end != hi or not el.closed:
        return None
    inside: list[Diagnostic] = []
    outside: Counter = Counter()
    in_held: list[Diagnostic] = []
    held_starts = [p[0] for p in placed]
    for d in a.diagnostics:
        k = bisect.bisect_right(held_starts, d.span.start) - 1
        if d.path is None and lo <= d.span.start < hi:
            if not _within(d, lo, hi):
                return None  # points out of the unit: may be aggregated with others in the document
            inside.append(_moved(d, start - lo))
        elif d.path is None and k >= 0 and d.span.start < placed[k][1]:
            if not _within(d, placed[k][0], placed[k][1]):
                return None  # the same for a held child
            in_held.append(_moved(d, placed[k][2] - placed[k][0]))
        else:
            if any(lo <= s.start < hi or lo < s.end <= hi for s in _spans(d)):
                return None  # something outside the unit pointing into it
            after_unit = d.span.start >= hi  # placed from the unit's end: the same before and after the edit
            outside[(after_unit, _key(_moved(d, -hi) if after_unit else d))] += 1
    poses = [excerpt[p.ts - 1 : p.stag_end] for p in el.children if p.tag == "pose"]
    names: set[str] = set()
    texts: set[str] = set()
    own: set[str] = set()
    own_resolved = resolved = True
    held_refs: dict[int, tuple[set[str], bool]] = {p[2]: (set(), True) for p in placed}
    for r in own_resolutions(a):
        k = bisect.bisect_right(held_starts, r.ref.span.start) - 1
        if k >= 0 and r.ref.span.start < placed[k][1]:
            refs, ok = held_refs[placed[k][2]]
            refs.add(r.ref.text.split("::", 1)[0])
            held_refs[placed[k][2]] = (refs, ok and r.target is not None and r.problem is None)
        if lo <= r.ref.span.start < hi:
            first = r.ref.text.split("::", 1)[0]
            names.add(first)
            ok = r.target is not None and r.problem is None
            resolved = resolved and ok
            own_pose = r.ref.role == "relative_to" and r.ref.element.tag == "pose" and r.ref.element.parent is el
            if not own_pose:  # the unit's own pose is read in the scope, and kept as it was
                texts.update((r.ref.text, first))
            else:
                own.add(first)
                own_resolved = own_resolved and ok
    name = el.get("name") if el.tag != "include" else names_of.get(id(el))
    got = Excerpt(
        start, unit, inside, outside, poses, names, texts, name, el.stag_end - lo, own, own_resolved, resolved
    )
    got.context = _norm(parts, got)
    got.held = in_held
    got.held_refs = {s: (frozenset(refs), ok) for s, (refs, ok) in held_refs.items()}
    scope = a.graphs.root if a.graphs is not None else None
    if name and scope is not None:
        got.frames = tuple(n for n, _ in scope.nested_frames() if n == name or n.startswith(name + "::"))
    return got


refusals: Counter[Refusal] = Counter()  # why incremental steps were refused (for tests and logs)


def _refuse(why: Refusal) -> Optional[NoReturn]:
    """Count the refusal; None (analyse in full)."""
    refusals[why] += 1
    return None


def _renamed(base: Base, old: str | None, new: str | None) -> bool:
    """Whether a child of the scope may be renamed from ``old`` to ``new`` with nothing else in the document
    changing: neither name is referenced outside the child, the new one is no other child's, the old one was
    no other child's, and no reference read in the scope fails (its message would name the nearest names)."""
    if old == new:
        return True
    return (
        bool(old)
        and bool(new)
        and base.scope_resolves
        and old not in base.duplicates
        and new not in base.scope_names
        and not ({old, new} & (base.referenced | base.outer_refs))
    )


def reanalyze(
    base: Base, text: str, path: str | None, options: Options, lines: LineIndex | None = None
) -> tuple[QuickAnalysis, Base] | None:
    """The diagnostics of ``text`` from ``base`` and the base after it, or None: analyse ``text`` in full."""
    if path != base.path or options != base.options:
        return _refuse(Refusal.OTHER_PATH_OR_OPTIONS)
    if options.max_document_bytes is not None and len(text) > options.max_document_bytes:
        return _refuse(Refusal.TOO_LARGE)
    old = base.text
    if text == old:
        return QuickAnalysis(text, path, list(base.diagnostics), _lines=lines), base
    a, old_end, new_end = changed_region(old, text)
    i = bisect.bisect_right([u.start for u in base.units], a) - 1
    if i < 0 or old_end > base.units[i].end:
        return _in_other(base, text, a, old_end, new_end, options, lines)
    u_start, u_stag, u_end, name = base.units[i]
    if a <= u_start or old_end > old.rfind("</", u_start, u_end):
        return _refuse(Refusal.NOT_IN_UNIT_BODY)  # the unit's start tag (a rename) may change, not its end tag
    delta = new_end - old_end
    old_unit = old[u_start:u_end]
    new_unit = text[u_start : u_end + delta]
    tag = "include" if old_unit.startswith("<include") else UNIT_TAG
    if MARK in new_unit or new_unit.count("<include") != (tag == "include") or _uri(old_unit) != _uri(new_unit):
        return _refuse(Refusal.SUPPRESSION_OR_INCLUDE)
    if old_end <= u_stag:
        was, now = _tag_and_name(old, u_start), _tag_and_name(text, u_start)
        if was is not None and now is not None and was[1] == name != now[1] and not _renamed(base, name, now[1]):
            return _rename_seen(base, text, i, a, old_end, new_end, now[1], options, lines)
    if name in base.referenced and _skeleton(old_unit) != _skeleton(new_unit):
        return _refuse(Refusal.REFERENCED_UNIT_CHANGED)
    last = base.last
    parts = _unit_context(base, i) + _named_units(base, i, old_unit + new_unit)
    before = (
        last
        if last is not None and last.start == u_start and last.unit == old_unit and last.context == _norm(parts, last)
        else _excerpt(base, u_start, old_unit, tag, parts, options)
    )
    if before is None:
        return _refuse(Refusal.NO_EXCERPT)
    after = _excerpt(base, u_start, new_unit, tag, parts, options)
    if after is None or after.outside != before.outside:
        return _refuse(Refusal.SCOPE_VIEW_CHANGED)
    if after.poses != before.poses and not _own_pose_exact(base, before, after):
        return _refuse(Refusal.SCOPE_VIEW_CHANGED)
    if (before.texts | after.texts) & (base.scope_names - {name}):
        return _refuse(Refusal.NAMES_A_SIBLING)
    new_name = after.name
    if new_name != name and (new_name is None or not _renamed(base, name, new_name)):
        return _refuse(Refusal.NAME_SEEN)
    merged = _exchange(base, before, after, a, old_end, delta)
    if merged is None:
        return None
    units = base.units[:i] + [Unit(u_start, u_start + after.stag, u_end + delta, after.name or name)]
    units += [Unit(s + delta, t + delta, e + delta, n) for s, t, e, n in base.units[i + 1 :]]
    others = [o if o.end <= u_start else o._replace(start=o.start + delta, end=o.end + delta) for o in base.others]
    new_base = replace(
        base,
        text=text,
        path=path,
        options=options,
        diagnostics=merged,
        foot_start=base.foot_start + delta,
        units=units,
        others=others,
        referenced=base.referenced | {n for n in after.names if n != after.name},
        scope_names=base.scope_names - {name} | {after.name or name},
        scope_resolves=base.scope_resolves and after.own_resolved,
        last=after,
        units_resolve=base.units_resolve and after.own_resolved,
        frames=base.frames.patch(name, after.name or name, after.frames) if base.frames is not None else None,
    )
    return QuickAnalysis(text, path, list(merged), _lines=lines), new_base


def _rename_seen(
    base: Base,
    text: str,
    i: int,
    a: int,
    old_end: int,
    new_end: int,
    new: str,
    options: Options,
    lines: LineIndex | None,
) -> tuple[QuickAnalysis, Base] | None:
    """Unit ``i`` renamed to ``new`` (only its start tag changed) when a reference read in the scope names it
    by its old or new name, or one fails: what the document says changes in the unit and in the scope's
    other children that name it, directly or through each other (*held*; a frame is out of every other
    scope's reach). The excerpt holds those, what they name and the children a unit's excerpt holds; a
    reference that fails is told the nearest of the whole scope's names (the excerpt is given the names of
    the children it leaves out: ``Options.top_scope_names``), so every reference that fails must be held.
    What the excerpt said in the held children before the edit must be what the document says there; it is
    exchanged for what it says after it."""
    old = base.text
    u_start, u_stag, u_end, name = base.units[i]
    frames = base.frames
    if not new or "&" in new or new in base.scope_names or base.duplicates or not base.units_resolve or frames is None:
        return _refuse(Refusal.NAME_SEEN)
    written = [
        {v.strip().split("::", 1)[0] for pair in _VALUES.findall(old, o.start, o.end) for v in pair if v.strip()}
        for o in base.others
    ]
    own = [_tag_and_name(old, o.start) for o in base.others]
    held = {k for k, o in enumerate(base.others) if not o.resolves}  # told the nearest names: held
    names = {name, new} | {t[1] for k in held if (t := own[k]) is not None and t[1]}
    grown = True
    while grown:
        grown = False
        for k in range(len(base.others)):
            if k not in held and written[k] & names:
                held.add(k)
                tag = own[k]
                if tag is not None and tag[1]:
                    names.add(tag[1])
                grown = True
    if names & base.referenced:
        return _refuse(Refusal.NAME_SEEN)  # a unit's own pose names a held child
    named = set().union(*(written[k] for k in held)) if held else set()
    spans = frozenset((base.others[k].start, base.others[k].end) for k in held)
    parts = set(_unit_context(base, i)) | spans
    parts |= {(u.start, u.end) for j, u in enumerate(base.units) if j != i and u.name in named}
    left_out = {name, new} | {u.name for u in base.units if (u.start, u.end) in parts}
    left_out |= {t[1] for o, t in zip(base.others, own) if t is not None and (o.start, o.end) in parts}
    given = replace(options, top_scope_names=frames.beyond(base.scope_names, left_out))
    delta = new_end - old_end
    ordered = sorted(parts)
    before = _excerpt(base, u_start, old[u_start:u_end], UNIT_TAG, ordered, given, spans)
    if before is None:
        return _refuse(Refusal.NO_EXCERPT)
    after = _excerpt(base, u_start, text[u_start : u_end + delta], UNIT_TAG, ordered, given, spans)
    if after is None or after.outside != before.outside or after.poses != before.poses:
        return _refuse(Refusal.SCOPE_VIEW_CHANGED)
    if (before.texts | after.texts) & (base.scope_names - {name}):
        return _refuse(Refusal.NAMES_A_SIBLING)
    was = [d for d in base.diagnostics if any(s <= d.span.start < e for s, e in spans)]
    if Counter(map(_key, was)) != Counter(map(_key, before.held)):
        return _refuse(Refusal.UNEXPLAINED_DIAGNOSTIC)
    gone = set(map(id, was))
    merged = _exchange(
        replace(base, diagnostics=[d for d in base.diagnostics if id(d) not in gone]), before, after, a, old_end, delta
    )
    if merged is None:
        return None
    merged += [d if d.span.start < u_start else _moved(d, delta) for d in after.held]
    units = base.units[:i] + [Unit(u_start, u_start + after.stag, u_end + delta, new)]
    units += [Unit(s + delta, t + delta, e + delta, n) for s, t, e, n in base.units[i + 1 :]]
    unit_names = {u.name for u in units}
    others: list[Other] = []
    for o in base.others:
        if (o.start, o.end) in spans:
            refs, ok = after.held_refs[o.start]
            o = Other(o.start, o.end, frozenset(refs & unit_names), ok)
        others.append(o if o.end <= u_start else o._replace(start=o.start + delta, end=o.end + delta))
    new_base = replace(
        base,
        text=text,
        diagnostics=merged,
        foot_start=base.foot_start + delta,
        units=units,
        others=others,
        scope_names=base.scope_names - {name} | {new},
        scope_resolves=base.units_resolve and all(o.resolves for o in others),
        last=None,  # its excerpt was given the names of the rest: not one a later step may reuse
        frames=frames.patch(name, new, after.frames),
    )
    return QuickAnalysis(text, base.path, list(merged), _lines=lines), new_base


def _own_pose_exact(base: Base, before: Excerpt, after: Excerpt) -> bool:
    """Whether the excerpt reads the unit's own pose (commented out, given or changed ``relative_to``) as the
    document does: its references resolve in the excerpt, to names no other child of the scope has."""
    return before.own_resolved and after.own_resolved and not ((before.own | after.own) & base.duplicates)


def _in_other(
    base: Base, text: str, a: int, old_end: int, new_end: int, options: Options, lines: LineIndex | None
) -> tuple[QuickAnalysis, Base] | None:
    """An edit inside one of the scope's other children (``<physics>``, a light, a world frame or joint, a
    link of the root model). The value of a ``<pose>`` is read only where it is written (what is wrong with
    it is said at it), so the child alone is its excerpt. Any other edit is checked with the child, the
    scope's children a unit's excerpt holds (those not known to depend on units only) and the units its
    references name before and after the edit, when nothing else names the child (so no other part of the
    document can change) and all its references resolve in that excerpt (as they then do in the document).
    Everything else is handled as for a unit."""
    old = base.text
    k = bisect.bisect_right([o.start for o in base.others], a) - 1
    if k < 0 or a <= base.others[k].start or old_end >= base.others[k].end:
        return _refuse(Refusal.NOT_IN_ONE_CHILD)
    o_start, o_end = base.others[k].start, base.others[k].end
    delta = new_end - old_end
    old_child, new_child = old[o_start:o_end], text[o_start : o_end + delta]
    tag = re.match(r"<([^\s/>]+)", old_child)
    if tag is None or tag.group(1) == UNIT_TAG:
        return _refuse(Refusal.NOT_IN_ONE_CHILD)
    if MARK in new_child or "<include" in new_child:
        return _refuse(Refusal.SUPPRESSION_OR_INCLUDE)
    pose_value = _in_pose_value(old, text, a, old_end, new_end, o_start, o_end)
    parts: list[tuple[int, int]] = []
    if not pose_value:
        named = {
            v.strip().split("::", 1)[0] for pair in _VALUES.findall(old_child + new_child) for v in pair if v.strip()
        }
        parts = [(o.start, o.end) for j, o in enumerate(base.others) if j != k and not (o.resolves and o.names)]
        parts += [(u.start, u.end) for u in base.units if u.name in named]
    last = base.last
    before = (
        last
        if last is not None and last.start == o_start and last.unit == old_child and last.context == _norm(parts, last)
        else _excerpt(base, o_start, old_child, tag.group(1), parts, options)
    )
    if before is None:
        return _refuse(Refusal.NO_EXCERPT)
    after = _excerpt(base, o_start, new_child, tag.group(1), parts, options)
    if after is None or after.outside != before.outside:
        return _refuse(Refusal.SCOPE_VIEW_CHANGED)
    resolves = base.others[k].resolves
    names = base.others[k].names
    if not pose_value:
        own = before.name
        if (
            not (before.resolved and after.resolved)
            or (before.names | after.names) & base.duplicates
            or (own and own in base.referenced | base.outer_refs)
        ):
            return _refuse(Refusal.OTHER_DEPENDED_ON)
        if not _renamed(base, own, after.name):
            return _refuse(Refusal.NAME_SEEN)
        resolves = True
        names = frozenset(after.names & {u.name for u in base.units})
    merged = _exchange(base, before, after, a, old_end, delta)
    if merged is None:
        return None
    units = [
        u if u.end <= o_start else Unit(u.start + delta, u.stag_end + delta, u.end + delta, u.name) for u in base.units
    ]
    others = base.others[:k] + [Other(o_start, o_end + delta, names, resolves)]
    others += [o._replace(start=o.start + delta, end=o.end + delta) for o in base.others[k + 1 :]]
    scope_names = base.scope_names
    if before.name != after.name:
        scope_names = scope_names - {before.name or ""} | {after.name or ""} - {""}
    new_base = replace(
        base,
        text=text,
        options=options,
        diagnostics=merged,
        foot_start=base.foot_start + delta,
        units=units,
        others=others,
        scope_names=scope_names,
        outer_refs=base.outer_refs | after.names,
        last=after,
        frames=base.frames.patch(before.name, after.name, after.frames) if base.frames is not None else None,
    )
    return QuickAnalysis(text, base.path, list(merged), _lines=lines), new_base


def _in_pose_value(old: str, text: str, a: int, old_end: int, new_end: int, o_start: int, o_end: int) -> bool:
    """Whether the edit changes only the value of a ``<pose>`` (no markup) in the child at ``o_start``."""
    if any(c in old[a:old_end] or c in text[a:new_end] for c in "<>&"):
        return False
    lt = old.rfind("<", o_start, a)
    gt = old.find("<", old_end, o_end)
    return not (
        lt < 0
        or gt < 0
        or old.find(">", lt, a) < 0
        or not re.match(r"<pose[\s>]", old[lt : lt + 6])
        or not old.startswith("</pose>", gt)
        or MARK in text[max(0, a - len(MARK)) : new_end + len(MARK)]
    )


def _norm(parts: list[tuple[int, int]], excerpt: Excerpt) -> tuple[tuple[int, int], ...]:
    """``parts`` placed from the edited element (before it) or from its end (after it): the same while the
    element's own text changes, so that the excerpt of the last step can be reused."""
    start, end = excerpt.start, excerpt.start + len(excerpt.unit)
    return tuple(sorted((s - start, e - start) if e <= start else (s - end, e - end) for s, e in parts))


def _exchange(base: Base, before: Excerpt, after: Excerpt, a: int, old_end: int, delta: int) -> list[Diagnostic] | None:
    """The previous diagnostics with what the excerpt said in the edited element before the edit exchanged
    for what it says after it, and everything past the edit moved by ``delta``; None if that is not sound."""
    # What the excerpt says in the unit before and after the edit; what it says in both (moved past the
    # edit) is left as the document has it, which may differ (a reference out of the unit is resolved in
    # the document, not in the excerpt). What changed must be the document's too, or nothing is known.
    added = Counter(map(_key, after.inside))
    removed: Counter = Counter()
    for d in before.inside:
        spans = list(_spans(d))
        moved = (
            d
            if all(s.end <= a for s in spans)
            else _moved(d, delta)
            if all(s.start >= old_end for s in spans)
            else None
        )
        k = _key(moved) if moved is not None else None
        if k is not None and added[k] > 0:
            added[k] -= 1
        else:
            removed[_key(d)] += 1
    kept: list[Diagnostic] = []
    for d in base.diagnostics:
        k = _key(d)
        if removed[k] > 0:
            removed[k] -= 1
            continue
        kept.append(d)
    if any(v > 0 for v in removed.values()):
        return _refuse(Refusal.UNEXPLAINED_DIAGNOSTIC)
    out: list[Diagnostic] = []
    for d in kept:
        spans = list(_spans(d))
        if all(s.end <= a for s in spans):
            out.append(d)
        elif all(s.start >= old_end for s in spans):
            out.append(_moved(d, delta))
        else:
            return _refuse(Refusal.DIAGNOSTIC_ACROSS_EDIT)
    for d in after.inside:
        k = _key(d)
        if added[k] > 0:
            added[k] -= 1
            out.append(d)
    return out


class Unmappable(Exception):
    """A place of the earlier text inside the element that changed: only the full analysis can answer."""


@dataclass(frozen=True)
class Shift:
    """How the current text differs from an earlier one analysed in full: ``earlier[a:old_end]`` became
    ``now[a:new_end]``, inside the element at ``[start, end]`` of the current text; ``held`` are the
    places of the earlier text (that element and the scope's children that name it, directly or through
    each other) whose answers may depend on the edit, ``names`` their names. Places outside them map both
    ways (:func:`sealed_shift`)."""

    a: int
    old_end: int
    new_end: int
    start: int
    end: int
    names_held: frozenset[str] = frozenset()
    held: tuple[tuple[int, int], ...] = ()
    # the edit changed only the value of a <pose>: no frame's name, kind or relative_to/attached_to changed,
    # so a completion list (names, kinds, which may be chosen) is the same but for the details (poses)
    pose_value: bool = False
    # (old, new): the edit changed only the element's name, as written in its start tag or <name>
    renamed: tuple[str, str] | None = None

    @property
    def delta(self) -> int:
        return self.new_end - self.old_end

    def _held(self, earlier: int) -> bool:
        return any(s <= earlier <= e for s, e in self.held)

    def to_earlier(self, offset: int) -> int | None:
        """The earlier text's offset of the current ``offset``; None where the answer may depend on the edit."""
        if self.start <= offset <= self.end:
            return None
        found = offset if offset < self.start else offset - self.delta
        return None if self._held(found) else found

    @cached_property
    def _prefixes(self) -> tuple[str, ...]:
        return tuple(n + "::" for n in self.names_held)

    def names(self, text: str) -> bool:
        """Whether ``text`` (a completion's label) names a held element or something in it: a list of the
        scope's frames says where each is and which may be chosen, so it is the new analysis's to make."""
        return text in self.names_held or text.startswith(self._prefixes)

    def renamed_alone(self) -> tuple[str, str] | None:
        """``(old, new)`` when the edit only renamed the element and no other child of the scope names it by
        either name: every frame edge of the scope is as it was, and a list of the scope's frames without
        poses is the earlier one with the element's names written anew. None otherwise."""
        return self.renamed if not self.held else None

    def for_listing(self) -> Shift:
        """The shift for answers that list names and kinds without poses (a completion whose details the
        client resolves later): after an edit of a pose value only, no name, kind or frame edge changed,
        so such a list is the same at every place outside the edited element, held or not."""
        return replace(self, held=()) if self.pose_value else self

    def to_current(self, offset: int) -> int:
        """The current text's offset of the earlier ``offset``; raises :class:`Unmappable` where held."""
        if self.start <= offset <= self.end - self.delta or self._held(offset):
            raise Unmappable(offset)
        return offset if offset < self.start else offset + self.delta


@dataclass(frozen=True)
class ScopeUses:
    """The children of a full analysis's enclosing element (the world, or the root model), in order: their
    spans, names and the first names of the references in them read in the enclosing scope (their own
    poses' included; for a child other than a model, every name it writes), which is all one child can
    learn of another."""

    children: tuple[tuple[int, int, str, frozenset[str]], ...]


def scope_uses(analysis: Analysis) -> ScopeUses | None:
    """The :class:`ScopeUses` of ``analysis``, or None when it has no single enclosing element."""
    root = analysis.xml.root
    if root is None or root.tag != "sdf" or len(root.children) != 1:
        return None
    kids = root.children[0].children
    included = included_units(analysis, root.children[0])
    if included is None:
        return None
    starts = [c.ts - 1 for c in kids]
    uses: list[set[str]] = [set() for _ in kids]
    for r in own_resolutions(analysis):
        at = r.ref.span.start
        i = bisect.bisect_right(starts, at) - 1
        if i < 0 or at >= kids[i].end:
            continue
        el = r.ref.element
        own_pose = r.ref.role == "relative_to" and el.tag == "pose" and el.parent is kids[i]
        if r.scope.parent is None or own_pose:
            uses[i].add(r.ref.text.split("::", 1)[0])
    text = analysis.text
    for c, u in zip(kids, uses):
        if c.tag != UNIT_TAG:  # not every reference is a frame graph's (a light's pose): every name it writes
            u.update(v.strip().split("::", 1)[0] for pair in _VALUES.findall(text, c.ts - 1, c.end) for v in pair)
    return ScopeUses(
        tuple(
            (c.ts - 1, c.end, (c.get("name") if c.tag != "include" else included.get(id(c))) or "", frozenset(u))
            for c, u in zip(kids, uses)
        )
    )


_NAME_ATTRIBUTE = re.compile(r"""\sname\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_START_TAG = re.compile(r"""<[^\s>/]+(?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*/?>""")


def _tag_and_name(text: str, start: int) -> tuple[str, str] | None:
    """The tag and the name attribute (as written) of the start tag at ``start``."""
    tag = _START_TAG.match(text, start)
    if tag is None:
        return None
    found = _NAME_ATTRIBUTE.search(tag.group())
    written = "" if found is None else found.group(1) if found.group(1) is not None else found.group(2)
    return tag.group().split(None, 1)[0].rstrip("/>"), written


_INCLUDE_NAME = re.compile(r"<name>([^<]*)</name>")


def _include_name(element: str, loaded: str) -> tuple[str, str] | None:
    """``("<include", its name)`` (as :func:`_tag_and_name` gives them) for the text of an include whose model was loaded as ``loaded``: its
    ``<name>``, or ``loaded`` without one; None when it names another file, has several ``<name>``s, or its
    ``<uri>`` is not the one loaded (what it brings is then not known here)."""
    names = _INCLUDE_NAME.findall(element)
    if len(names) > 1 or len(_uri(element)) != 1:
        return None
    return "<include", names[0].strip() if names else loaded


def sealed_shift(earlier: Analysis, base: Base, uses: ScopeUses) -> Shift | None:
    """How ``base``'s text differs from ``earlier``'s (``uses`` is earlier's), when every difference lies
    inside one child of the scope whose tag did not change. What the features answer elsewhere then
    depends on the edit only in the children that name that one (by its old or new name, when renamed),
    directly or through each other (a frame is out of every other scope's reach; the features do not
    suggest names, so a reference that fails elsewhere is answered as before): the
    earlier analysis answers outside those, its places moved by the edit (none when the texts are the
    same). None otherwise."""
    old, now = earlier.text, base.text
    if earlier.path != base.path:
        return None
    if old is now or old == now:  # (an edit undone)
        return Shift(0, 0, 0, -1, -1)
    a, old_end, new_end = changed_region(old, now)
    delta = new_end - old_end
    kids = uses.children
    i = bisect.bisect_right(kids, (a, float("inf"))) - 1
    if i < 0 or not (kids[i][0] < a and old_end < kids[i][1]):
        return None
    start, end, name = kids[i][0], kids[i][1] + delta, kids[i][2]
    tag, was = _tag_and_name(now, start), _tag_and_name(old, start)
    if tag is not None and was is not None and tag[0] == was[0] == "<include":
        tag, was = _include_name(now[start:end], name), _include_name(old[start : kids[i][1]], name)
        if tag is None or was is None or _uri(now[start:end]) != _uri(old[start : kids[i][1]]):
            return None  # another file read, or the name no longer plain
    if tag is None or was is None or tag[0] != was[0] or was[1] != name:
        return None  # no longer one element of the same kind
    names = {name} if name else set()
    if tag[1] != name:  # renamed: both names held (what fails elsewhere names neither: it fails as before)
        if not (name and tag[1]):
            return None
        names.add(tag[1])
    held = {i}
    grown = bool(names)
    while grown:
        grown = False
        for k, (_, _, kid_name, kid_uses) in enumerate(kids):
            if k not in held and kid_uses & names:
                held.add(k)
                if kid_name:
                    names.add(kid_name)
                grown = True
    spans = tuple((kids[k][0], kids[k][1]) for k in sorted(held) if k != i)
    pose_value = _in_pose_value(old, now, a, old_end, new_end, start, kids[i][1])
    renamed = _renamed_alone(old[start : kids[i][1]], now[start:end], tag[0] == "<include", name, tag[1])
    return Shift(a, old_end, new_end, start, end, frozenset(names), spans, pose_value, renamed)


_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*")  # no reserved or scoped name, nothing to trim


def _renamed_alone(was: str, now: str, include: bool, old: str, new: str) -> tuple[str, str] | None:
    """``(old, new)`` when the element's text ``was`` became ``now`` by its written name alone (plain names,
    neither reserved: ``world``, ``__model__``, ``__...``)."""
    if old == new or not all(_PLAIN_NAME.fullmatch(n) and n != "world" and not n.startswith("__") for n in (old, new)):
        return None
    before, after = _name_span(was, include), _name_span(now, include)
    if before is None or after is None or was[before[0] : before[1]] != old or now[after[0] : after[1]] != new:
        return None
    same = before[0] == after[0] and was[: before[0]] == now[: after[0]] and was[before[1] :] == now[after[1] :]
    return (old, new) if same else None


def _name_span(element: str, include: bool) -> tuple[int, int] | None:
    """Where the name is written in the text of an element: an include's ``<name>``, else the start tag's."""
    if include:
        found = _INCLUDE_NAME.search(element)
        return found.span(1) if found is not None and len(_INCLUDE_NAME.findall(element)) == 1 else None
    tag = _START_TAG.match(element)
    attr = _NAME_ATTRIBUTE.search(element, 0, tag.end()) if tag is not None else None
    if attr is None:
        return None
    return attr.span(1) if attr.group(1) is not None else attr.span(2)


__all__ = [
    "Base",
    "Other",
    "QuickAnalysis",
    "Refusal",
    "ScopeUses",
    "Shift",
    "Unit",
    "Unmappable",
    "base_of",
    "changed_region",
    "reanalyze",
    "scope_uses",
    "sealed_shift",
]
