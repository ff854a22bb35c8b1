"""What every validation phase shares: the reporting helpers and the wording of scopes and suggestions.

:class:`CheckerBase` holds the state of one run (the diagnostics so far and the
nodes already blamed, so one mistake gives one diagnostic) and the helpers that
turn an unresolved reference into a diagnostic; the phases themselves live in
``checks.name_checks``, ``checks.joint_checks`` and ``checks.frame_checks`` and are put together in
:class:`~.checks.Checker`. Kept apart from ``checks`` so no phase module imports it back.
"""

from __future__ import annotations

import re
from typing import Iterable

from ...diagnostics import Diagnostic, Fix, Severity, error
from ...text import Span
from ...text_memo import TextMemo
from ...xml import XmlDocument
from ..frames import WORLD, FrameGraphs, FrameNode, Resolution, Scope


DUNDER_NAME = re.compile(r"^__.*__$")


UNKNOWN_REFERENCE = (
    "unknown_reference"  # data key of a diagnostic about a reference that may lead into an unloaded include
)


def scope_words(scope: Scope) -> str:
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


def nearest_name(text: str, candidates: Iterable[str], more: tuple[str, ...] = ()) -> str | None:
    """The name nearest ``text`` among ``candidates`` and ``more``: ``difflib.get_close_matches(text, pool,
    n=1, cutoff=0.6)`` over those other than ``text``, found without computing the ratio of every one.
    The best of ``more`` (an excerpt's ``Options.top_scope_names``: the same thousands of names step after
    step) is remembered; the best of a union is the better of the bests of its parts."""
    best = _nearest(text, candidates)
    if more:
        key = (text, more)
        got = _NEAREST_IN_MORE.get(key, _NONE)
        if got is _NONE:
            got = _NEAREST_IN_MORE.keep(key, _nearest(text, more))
        if isinstance(got, tuple) and (best is None or got > best):
            best = got
    return best[1] if best is not None else None


def _nearest(text: str, candidates: Iterable[str]) -> tuple[float, str] | None:
    """The ratio and the name of :func:`nearest_name`.

    A world of 3,000 models offers 24,000 names, and get_close_matches took 150-190 ms to go through
    them. The ratio ``2*M/T`` counts matched characters, which are at most those the two names have in
    common (counted with repeats); that bound is computed first, and the exact ratio only for the names
    whose bound reaches the best so far, in decreasing order of bound (a tie is decided by the name, as
    get_close_matches decides it), so the answer is the same."""
    import difflib  # only when a name is wrong: not a cost of every start-up

    counts: dict[str, int] = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    size = len(text)
    bounded: list[tuple[float, str]] = []
    for c in candidates:
        if not c or c == text:
            continue
        left = dict(counts)
        common = 0
        for ch in c:
            n = left.get(ch, 0)
            if n:
                left[ch] = n - 1
                common += 1
        bound = 2.0 * common / (len(c) + size)
        if bound >= _CUTOFF:
            bounded.append((bound, c))
    bounded.sort(reverse=True)
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(text)
    best: tuple[float, str] | None = None
    for bound, c in bounded:
        if best is not None and bound < best[0]:
            break
        matcher.set_seq1(c)
        ratio = matcher.ratio()
        if ratio >= _CUTOFF and (best is None or (ratio, c) > best):
            best = (ratio, c)
    return best


_CUTOFF = 0.6  # difflib.get_close_matches' default: a suggestion at least this close
_NONE = object()
_NEAREST_IN_MORE: TextMemo[tuple[str, tuple[str, ...]], tuple[float, str] | None] = TextMemo(16)


def node_span(node: FrameNode) -> Span:
    """Where to report a problem of ``node``: its name, else its element (an included model: the <include>)."""
    if node.name_span is not None:
        return node.name_span
    inc = getattr(node.entity, "from_include", None)
    if inc is not None:
        return inc.element.tag_span
    return node.entity.element.tag_span


class CheckerBase:
    """The state of one run over a document's frame graphs and the helpers every phase reports with."""

    def __init__(
        self, xml: XmlDocument, graphs: FrameGraphs, version: tuple[int, int], more_names: tuple[str, ...] = ()
    ) -> None:
        self.xml = xml
        self.g = graphs
        self.version = version
        self.more_names = more_names  # the top scope's names its text leaves out (Options.top_scope_names)
        self.out: list[Diagnostic] = []
        self.broken: set[int] = set()  # ids of nodes whose own problem was reported
        # nodes written in an included file are checked in that file's own analysis and reported once,
        # on the <include>: here they are only quiet links of chains (never reported, never blamed)
        self.nodes: list[FrameNode] = []
        for n in graphs.nodes:
            s = n.scope
            if s is None or s.path is None:
                self.nodes.append(n)
            else:
                self.broken.add(id(n))

    def _mark(self, node: FrameNode | None) -> None:
        if node is not None:
            self.broken.add(id(node))

    def _unknown(self, res: Resolution) -> bool:
        """Might the reference lead into an include that could not be loaded? Then it is not judged:
        what is unknown stays unknown (the include has its own diagnostic)."""
        where = res.missing_in or res.scope
        if res.missing_in is not None and self._in_flawed(res.missing_in):
            return True
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

    def _targets(self, scope: Scope, node: FrameNode, attr: str) -> list[str]:
        """Names ``node``'s ``attr`` (attached_to, relative_to) could take without making a cycle:
        a suggestion must make the reference valid."""
        out = []
        for name, target in scope.nested_frames():
            cur: FrameNode | None = target
            steps = 0
            while cur is not None and cur is not node and steps < 64:
                cur = getattr(cur, attr)
                steps += 1
            if cur is not node:
                out.append(name)
        return out

    def _in_flawed(self, scope) -> bool:
        """Whether ``scope`` is, or lies in, a model an include brought with errors (``FrameGraphs.flawed``)."""
        flawed = self.g.flawed
        while flawed and scope is not None:
            if id(scope) in flawed:
                return True
            scope = scope.parent
        return False

    def _hole_model(self, node: FrameNode | None) -> bool:
        """A model whose content is partly unknown (an include in it could not be loaded)."""
        return (
            node is not None
            and node.kind == "model"
            and node.inner is not None
            and bool(self.g.holes.get(id(node.inner)))
        )

    def _bad_ref(self, code: str, res: Resolution, what: str, candidates: Iterable[str] | None = None) -> Diagnostic:
        """A diagnostic for a reference that did not resolve, with a suggestion when one fits; one marked
        unknown (dropped at the end, its node still marked) when it may lead into an include not loaded."""
        ref = res.ref
        scope = res.scope
        if res.problem not in ("reserved", "empty") and self._unknown(res):
            return error(code, "unknown", ref.span, data={UNKNOWN_REFERENCE: True})
        if res.problem == "reserved":
            return error(
                "ATTRIBUTE_INVALID",
                f"'__root__' is reserved and cannot be used in {what}; name a frame of {scope_words(scope)}",
                ref.span,
            )
        if res.problem == "empty":
            return error(code, f"{what} is empty: name a frame of {scope_words(scope)}", ref.span)
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
            msg = f"{what} is '{ref.text}', but {scope_words(where)} has no frame '{failed}'"
        elif "::" in ref.text and span != ref.span:
            msg = f"{what} is '{ref.text}', but {scope_words(scope)} has no nested model '{failed}'"
        else:
            msg = f"{what} is '{ref.text}', which is not a frame in {scope_words(scope)}"
        if ref.text == WORLD and scope.kind == "model":
            msg += " ('world' can only be a joint's parent inside a model)"
        outer = scope.parent
        while outer is not None and ref.text not in outer.frames:
            outer = outer.parent
        if outer is not None:
            return error(
                code,
                msg
                + f"; '{ref.text}' belongs to the enclosing {scope_words(outer)}, and references cannot reach outside "
                "the model they are written in: move the element, or refer to a frame of this model",
                ref.span,
            )
        hint = nearest_name(ref.text, candidates, self.more_names if scope.parent is None else ())
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
            return Diagnostic(
                d.code, d.severity, d.message, d.span, d.related, d.fixes, d.path, {**d.data, ROOT_ONLY: True}
            )
        note = _NESTED_NOTE.format(consequence=consequence or _UNRESOLVED.format(what=what))
        return Diagnostic(d.code, Severity.WARNING, d.message + note, d.span, d.related, d.fixes, d.path, d.data)
