"""Request handlers that call the editor features.

Each handler is a module-level function behind ``requests.with_snapshot``, which hands it an
analysis of the document's current text (see ``Scheduler.analysis``) and the request's position
converted with *that* analysis' ``LineIndex``; the handler converts its answer back the same way
(``Request.range``), so a result always matches the text it was computed from.

Kinds, chosen once for both the outline and completion so the icons agree:

==========  ==============  ======================
frame kind  SymbolKind      CompletionItemKind
==========  ==============  ======================
world       Namespace       Module
model       Module          Module
link        Class           Class
joint       Interface       Interface
frame       Field           Field
include     Package         (not completed)
==========  ==============  ======================

A link is a body with its own properties (a class); a joint is what links
connect through (an interface); a frame is a named point of a model (a
field); models group frames (modules) and the world is the outermost scope.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.capabilities import get_capability

from ..semantics import Analysis
from ..semantics.incremental import Unmappable
from ..text import Span
from .convert import Place, RawJson, to_lsp_diagnostic, to_range, to_span
from .documents import path_to_uri
from .faults import RequestFailed
from .lazy import LazyModule
from .requests import Request, with_snapshot

if TYPE_CHECKING:
    from ..features import Location, Symbol, TextEdit
    from .session import Session

features = LazyModule("sdformat_lsp.features")  # imported on the first request that needs it (see lazy.py)

SYMBOL_KINDS: dict[str, types.SymbolKind] = {
    "world": types.SymbolKind.Namespace,
    "model": types.SymbolKind.Module,
    "link": types.SymbolKind.Class,
    "joint": types.SymbolKind.Interface,
    "frame": types.SymbolKind.Field,
    "include": types.SymbolKind.Package,
    # xacro definitions (features.xacro_features)
    "macro": types.SymbolKind.Function,
    "property": types.SymbolKind.Constant,
    "arg": types.SymbolKind.Variable,
}

COMPLETION_KINDS: dict[str, types.CompletionItemKind] = {
    "world": types.CompletionItemKind.Module,
    "model": types.CompletionItemKind.Module,
    "link": types.CompletionItemKind.Class,
    "joint": types.CompletionItemKind.Interface,
    "frame": types.CompletionItemKind.Field,
    # schema items (features.schema_completion)
    "element": types.CompletionItemKind.Property,
    "attribute": types.CompletionItemKind.Variable,
    "value": types.CompletionItemKind.EnumMember,
    # xacro items (features.xacro_features)
    "macro": types.CompletionItemKind.Function,
    "property": types.CompletionItemKind.Constant,
    "parameter": types.CompletionItemKind.Variable,
}

# Typing one of these may open a frame reference: a quote starts an
# attribute value, ':' continues a scoped name, '>' ends <parent>/<child>;
FRAME_KINDS = frozenset({"link", "joint", "frame", "model", "world"})
LARGE_COMPLETION = 200  # items: above this, the list is the best the typed text can match, marked incomplete


def _range_json(r: types.Range) -> dict:
    return {
        "start": {"line": r.start.line, "character": r.start.character},
        "end": {"line": r.end.line, "character": r.end.character},
    }


def _best(items: list, typed: str, limit: int) -> list:
    """The ``limit`` items the client would show first of those ``typed`` can match: those it starts
    (as written, then in any case) before the rest, each group in ``sortText`` order.

    A list of every frame of a world of hundreds of models (11,000 items in
    ``bench_lsp.py``'s world of 554 includes) took 60-100 ms to build, send and
    read at each keystroke, while an editor shows a dozen; with the list marked
    incomplete, the client asks again as the user types on, and the typed text
    narrows it to what is sought."""
    low = typed.lower()
    groups: tuple[list, list, list] = ([], [], [])
    for item in items:
        label = item.filter_text or item.label
        if label.startswith(typed):
            groups[0].append(item)
        elif label.lower().startswith(low):
            groups[1].append(item)
        elif _subsequence(low, label):
            groups[2].append(item)
    out: list = []
    for group in groups:
        if len(out) + len(group) > limit:
            group = heapq.nsmallest(limit - len(out), group, key=lambda i: i.sort_text or i.label)
        out += group
        if len(out) >= limit:
            break
    return out


def _subsequence(typed: str, label: str) -> bool:
    """Every character of ``typed`` occurs in ``label`` in order (case-insensitive: both lowered).

    Each character is looked for after the one before with ``str.find``: linear,
    and a list of a thousand labels is narrowed in a fraction of a millisecond.
    """
    low = label.lower()
    pos = 0
    for ch in typed.lower():
        pos = low.find(ch, pos) + 1
        if not pos:
            return False
    return True


# '<' starts an element (schema completion).
COMPLETION_TRIGGERS = ['"', "'", ":", ">", "<"]


def _contains(outer: types.Range, inner: types.Range) -> bool:
    def key(p: types.Position) -> tuple[int, int]:
        return p.line, p.character

    return key(outer.start) <= key(inner.start) and key(inner.end) <= key(outer.end)


def _locations(place: Place, found: list[Location]) -> list[types.Location] | None:
    return [place.location(loc.span, loc.path) for loc in found] or None


def _workspace_edit(req: Request, edits: list[TextEdit]) -> types.WorkspaceEdit:
    place, version, server = req.place, req.version, req.server
    by_file: dict[str | None, list[TextEdit]] = {}
    for e in edits:  # edits of other files: a rename across xacro includes
        by_file.setdefault(None if place.same_file(e.path) else e.path, []).append(e)
    per_uri: list[tuple[str, int | None, list[types.TextEdit]]] = []
    for path, group in by_file.items():
        lines = place.lines if path is None else place.lines_of(path)
        if lines is None:
            continue
        lsp_edits = [types.TextEdit(range=to_range(lines, e.span, place.encoding), new_text=e.new_text) for e in group]
        other = server.documents.by_path(path) if path is not None else None
        per_uri.append(
            (
                place.uri if path is None else path_to_uri(path),
                version if path is None else (other.version if other else None),
                lsp_edits,
            )
        )
    if get_capability(server.client_capabilities, "workspace.workspace_edit.document_changes", False):
        # Versioned, so the client refuses the edit if the text moved on meanwhile.
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=v), edits=es
                )
                for uri, v, es in per_uri
            ]
        )
    return types.WorkspaceEdit(changes={uri: es for uri, _, es in per_uri})


@with_snapshot(types.TEXT_DOCUMENT_HOVER, earlier=True)
def hover(req: Request, analysis: Analysis, offset: int) -> types.Hover | None:
    markdown = req.server.markdown_hover
    result = features.hover(analysis, offset, markdown)
    if result is None:
        return None
    kind = types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText
    return types.Hover(contents=types.MarkupContent(kind=kind, value=result.text), range=req.range(result.span))


@with_snapshot(types.TEXT_DOCUMENT_DEFINITION, earlier=True)
def definition(req: Request, analysis: Analysis, offset: int) -> list[types.Location] | None:
    return _locations(req.place, features.definition(analysis, offset))


@with_snapshot(types.TEXT_DOCUMENT_REFERENCES)
def references(req: Request, analysis: Analysis, offset: int) -> list[types.Location] | None:
    return _locations(req.place, features.references(analysis, offset, req.params.context.include_declaration))


@with_snapshot(types.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(req: Request, analysis: Analysis, offset: int) -> types.PrepareRenamePlaceholder | None:
    span = features.prepare_rename(analysis, offset)
    if span is None:
        refusal = features.rename_refusal(analysis, offset)
        if refusal is not None and refusal.path is not None:
            # a frame of an included file: say where it can be renamed instead of a bare "cannot rename"
            raise RequestFailed(message=refusal.message)
        return None
    return types.PrepareRenamePlaceholder(range=req.range(span), placeholder=analysis.text[span.start : span.end])


@with_snapshot(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
def rename(req: Request, analysis: Analysis, offset: int) -> types.WorkspaceEdit | None:
    try:
        edits = features.rename(analysis, offset, req.params.new_name)
    except features.RenameError as exc:
        raise RequestFailed(message=exc.message) from None
    return _workspace_edit(req, edits)


def _resolves_detail(server: Session) -> bool:
    props = get_capability(
        server.client_capabilities, "text_document.completion.completion_item.resolve_support.properties", None
    )
    return props is not None and "detail" in props


@with_snapshot(
    types.TEXT_DOCUMENT_COMPLETION,
    types.CompletionOptions(trigger_characters=COMPLETION_TRIGGERS, resolve_provider=True),
    earlier=True,
    listing=_resolves_detail,  # the frames' poses resolved per item: the list is of names and kinds
)
def completion(req: Request, analysis: Analysis, offset: int) -> RawJson | None:
    server, place, params = req.server, req.place, req.params
    snippets = bool(
        get_capability(server.client_capabilities, "text_document.completion.completion_item.snippet_support", False)
    )
    lazy = _resolves_detail(server)  # thousands of frames: poses are worked out only for the item the user looks at
    result = features.complete(analysis, offset, snippets, details=not lazy)
    labels = (label for i in result.items for label in (i.label, i.filter_text or "", i.insert_text or ""))
    if req.earlier_names(labels, details=not lazy):
        # frames of the edited element listed: the new analysis answers, unless the edit only renamed it
        renamed = req.renamed() if lazy else None
        listed = features.renamed_listing(result, *renamed) if renamed is not None else None
        if listed is None:
            raise Unmappable(offset)
        result = listed
    at, length = req.current(offset, analysis.text)  # resolved against the analysis of the current text
    data = {"uri": params.text_document.uri, "offset": at, "text": length} if lazy else None
    found = result.items
    incomplete = False
    typed = analysis.text[result.replace_span.start : offset] if result.replace_span.start <= offset else ""
    if len(found) > LARGE_COMPLETION:
        # Thousands of frames: send the best the typed text could still match (as a
        # subsequence, which every client's fuzzy match implies) and let the
        # client ask again as the user types on.
        found = _best(found, typed, LARGE_COMPLETION)
        incomplete = True
    replace = req.range(result.replace_span)
    cursor = types.Range(start=params.position, end=params.position)
    # A text edit must stay on one line and contain the cursor; otherwise insert the label.
    usable = replace.start.line == replace.end.line and _contains(
        replace, to_range(place.lines, Span(offset, offset), place.encoding)
    )
    edit_range = replace if usable else cursor
    # Clients that take list defaults get the edit range (and the resolve data) once, not per item:
    # a list of thousands of frames is then a fraction of the size to build, send and read.
    defaults = (
        get_capability(server.client_capabilities, "text_document.completion.completion_list.item_defaults", None) or ()
    )
    shared_range = "editRange" in defaults
    shared_data = lazy and "data" in defaults
    # The list is written as the JSON it becomes (field names as LSP spells them, unset fields left
    # out), not as lsprotocol objects: for thousands of frames, building and converting those objects
    # cost several times what the completion itself costs.
    edit_json = _range_json(edit_range)
    items = []
    for item in found:
        new_text = item.insert_text if item.insert_text is not None else item.label
        wants_data = lazy and not item.detail and item.kind in FRAME_KINDS
        out: dict = {
            "label": item.label,
            "kind": COMPLETION_KINDS.get(item.kind, types.CompletionItemKind.Reference).value,
        }
        if item.detail:
            out["detail"] = item.detail
        if item.sort_text:
            out["sortText"] = item.sort_text
        if item.filter_text is not None:
            out["filterText"] = item.filter_text
        if item.documentation is not None:
            out["documentation"] = item.documentation
        if item.deprecated:
            out["tags"] = [types.CompletionItemTag.Deprecated.value]
        if item.snippet and snippets:  # snippet syntax only for clients that declared snippetSupport
            out["insertTextFormat"] = types.InsertTextFormat.Snippet.value
        if not shared_range:
            out["textEdit"] = {"range": edit_json, "newText": new_text}
        elif new_text != item.label:
            out["textEditText"] = new_text
        if wants_data and not shared_data:
            out["data"] = data
        items.append(out)
    result_json: dict = {"isIncomplete": incomplete, "items": items}
    if shared_range or shared_data:
        defaults_json: dict = {}
        if shared_range:
            defaults_json["editRange"] = edit_json
        if shared_data:
            defaults_json["data"] = data
        result_json["itemDefaults"] = defaults_json
    return RawJson(result_json)


def _resolve_uri(item: types.CompletionItem) -> str | None:
    data = item.data if isinstance(item.data, dict) else None  # clients merge list defaults into the item they resolve
    if not data or "uri" not in data:
        return None
    return str(data["uri"])


def _unchanged(item: types.CompletionItem) -> types.CompletionItem:
    return item


@with_snapshot(types.COMPLETION_ITEM_RESOLVE, position=False, uri=_resolve_uri, otherwise=_unchanged)
def completion_resolve(req: Request, analysis: Analysis, offset: None) -> types.CompletionItem:
    item = req.params
    data = item.data
    if len(analysis.text) != data.get("text"):
        return item  # the document changed since the list was made: its offsets no longer apply
    detail = features.frame_detail(analysis, int(data.get("offset", 0)), item.label)
    if detail:
        item.detail = detail
    return item


@with_snapshot(types.TEXT_DOCUMENT_DOCUMENT_LINK, types.DocumentLinkOptions(resolve_provider=False), position=False)
def document_link(req: Request, analysis: Analysis, offset: None) -> list[types.DocumentLink] | None:
    tooltips = get_capability(req.server.client_capabilities, "text_document.document_link.tooltip_support", False)
    return [
        types.DocumentLink(
            range=req.range(link.span), target=path_to_uri(link.path), tooltip=link.tooltip if tooltips else None
        )
        for link in features.document_links(analysis)
    ] or None


@with_snapshot(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, position=False)
def document_symbol(
    req: Request, analysis: Analysis, offset: None
) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | None:
    symbols = features.document_symbols(analysis)
    if get_capability(
        req.server.client_capabilities, "text_document.document_symbol.hierarchical_document_symbol_support", False
    ):
        return _document_symbols(req.place, symbols)
    return _flatten(req.place, symbols)


def _quick_fixes_wanted(server: Session, params: types.CodeActionParams) -> bool:
    only = params.context.only
    if only and not any(types.CodeActionKind.QuickFix.value.startswith(k) for k in only):
        return False
    # we have no commands to offer a client that only takes commands
    return bool(
        get_capability(server.client_capabilities, "text_document.code_action.code_action_literal_support", None)
    )


@with_snapshot(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    position=False,
    when=_quick_fixes_wanted,
)
def code_action(req: Request, analysis: Analysis, offset: None) -> list[types.CodeAction] | None:
    place = req.place
    span = to_span(place.lines, req.params.range, place.encoding)
    out = []
    for action in features.code_actions(analysis, span):
        out.append(
            types.CodeAction(
                title=action.title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[to_lsp_diagnostic(action.diagnostic, place, req.server.diagnostic_support)],
                is_preferred=action.preferred or None,
                edit=_workspace_edit(req, action.edits),
            )
        )
    return out or None


# Deeper outlines are flattened at this depth: clients cannot show more, and
# serialising a structure thousands of levels deep would exhaust the stack.
MAX_SYMBOL_DEPTH = 64


def _document_symbols(place: Place, symbols: list[Symbol]) -> list[types.DocumentSymbol]:
    """The outline as DocumentSymbols, iteratively (hostile files nest thousands of models)."""
    out: list[types.DocumentSymbol] = []
    stack: list[tuple[Symbol, list[types.DocumentSymbol], int]] = [(s, out, 1) for s in reversed(symbols)]
    while stack:
        s, siblings, depth = stack.pop()
        rng = to_range(place.lines, s.span, place.encoding)
        sel = to_range(place.lines, s.selection_span, place.encoding)
        if not _contains(rng, sel):  # the protocol requires it; clients reject the outline otherwise
            sel = types.Range(start=rng.start, end=rng.start)
        node = types.DocumentSymbol(
            name=s.name or "?",
            kind=SYMBOL_KINDS.get(s.kind, types.SymbolKind.Object),
            detail=s.detail or None,
            range=rng,
            selection_range=sel,
        )
        siblings.append(node)
        if s.children:
            if depth < MAX_SYMBOL_DEPTH:
                node.children = []
                target, child_depth = node.children, depth + 1
            else:
                target, child_depth = siblings, depth
            stack.extend((c, target, child_depth) for c in reversed(s.children))
    return out


def _flatten(place: Place, symbols: list[Symbol]) -> list[types.SymbolInformation]:
    out: list[types.SymbolInformation] = []
    stack: list[tuple[Symbol, str | None]] = [(s, None) for s in reversed(symbols)]
    while stack:
        s, container = stack.pop()
        out.append(
            types.SymbolInformation(
                name=s.name or "?",
                kind=SYMBOL_KINDS.get(s.kind, types.SymbolKind.Object),
                location=types.Location(uri=place.uri, range=to_range(place.lines, s.span, place.encoding)),
                container_name=container,
            )
        )
        stack.extend((c, s.name) for c in reversed(s.children))
    return out
