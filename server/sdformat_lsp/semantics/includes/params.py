"""``<include><experimental:params>``: libsdformat's parameter passing, as far as frames care.

Each child of ``<experimental:params>`` names an element of the included
model by ``element_id`` (``::``-separated, relative to the model) and an
``action``:

* ``add`` - a new child (``name`` required) of the element named by
  ``element_id`` (``""``: the model itself);
* ``modify`` / ``replace`` / ``remove`` - the element itself;
* no action - the element's children carry the actions.

What changes the frame graphs is applied to the included model (links,
joints, frames and nested models added, removed or replaced; poses
modified); everything else is only checked for what libsdformat rejects
before touching the model (missing ``element_id``, unknown actions, elements
that do not exist or already exist, missing names). The diagnostics point
at the ``<experimental:params>`` children in the including document.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from ...diagnostics import Diagnostic, error
from ...model import Frame, Joint, Link, Model, Named
from ...model.builder import Builder
from ...xml import XmlDocument, XmlElement

ACTIONS = ("add", "modify", "remove", "replace")
_FRAME_TAGS = {"link": "links", "joint": "joints", "frame": "frames", "model": "models"}


def params_element(include_el: XmlElement) -> XmlElement | None:
    for c in include_el.children:
        if c.local_name == "params" and c.prefix is not None:
            return c
    return None


class _Applier:
    def __init__(
        self,
        xml: XmlDocument,
        version: tuple[int, int],
        model: Model,
        included_model: Callable[[Model, object], Model | None],
    ) -> None:
        self.builder = Builder(xml)
        self.builder.version = version
        self.model = model
        self.included_model = included_model
        self.out: list[Diagnostic] = []

    # -- finding ----------------------------------------------------------

    def _find(self, segments: list[str], tag: str):
        """(path of nested model names, the model there, the entity or XML element found) or None."""
        path: list[str] = []
        m = self.model
        el: XmlElement | None = None  # inside a link (or another non-model element)
        through_include = False
        for seg in segments[:-1]:
            if el is None:
                nested = next((x for x in m.models if x.name == seg), None)
                if nested is None:
                    for inc in m.includes:
                        cand = self.included_model(m, inc)
                        if cand is not None and cand.name == seg:
                            nested, through_include = cand, True
                            break
                if nested is not None:
                    path.append(seg)
                    m = nested
                    continue
                ent = next((x for x in m.members if x.name == seg and not isinstance(x, Model)), None)
                if ent is None:
                    return None
                el = ent.element
            else:
                el = next((c for c in el.children if c.get("name") == seg), None)
                if el is None:
                    return None
        last = segments[-1]
        if el is None and tag in _FRAME_TAGS:
            for x in getattr(m, _FRAME_TAGS[tag]):
                if x.name == last:
                    return path, m, x, through_include
            if tag == "model":
                for inc in m.includes:
                    cand = self.included_model(m, inc)
                    if cand is not None and cand.name == last:
                        return path, m, cand, True
            return None
        parent = el if el is not None else m.element
        for c in parent.children:
            if c.tag == tag and c.get("name") == last:
                return path, m, c, through_include
        return None

    def _find_parent(self, element_id: str):
        """The model or element that ``add`` puts a child into."""
        if not element_id:
            return [], self.model, self.model, False
        segs = element_id.split("::")
        for tag in ("model", "link", "joint", "frame"):
            hit = self._find(segs, tag)
            if hit is not None:
                return hit
        el: XmlElement = self.model.element  # any named element (a visual, a collision, ...)
        for seg in segs:
            nxt = next((c for c in el.children if c.get("name") == seg), None)
            if nxt is None:
                return None
            el = nxt
        return [], self.model, el, True

    # -- rebuilding ---------------------------------------------------------

    def _rebuild(self, path: list[str], fn: Callable[[Model], Model]) -> None:
        def go(m: Model, i: int) -> Model:
            if i == len(path):
                return fn(m)
            old = next(x for x in m.models if x.name == path[i])
            new = go(old, i + 1)
            return _swap(m, old, new)

        self.model = go(self.model, 0)

    # -- the actions -------------------------------------------------------------

    def _err(self, code: str, message: str, el: XmlElement) -> None:
        self.out.append(error(code, message, el.tag_span))

    def apply(self, params: XmlElement) -> Model:
        for el in params.children:
            try:
                self._one(el)
            except StopIteration:  # pragma: no cover - a path changed under us
                continue
        return self.model

    def _one(self, el: XmlElement) -> None:
        eid_attr = el.attr("element_id")
        if eid_attr is None:
            self._err(
                "ATTRIBUTE_MISSING",
                f'<{el.tag}> in <experimental:params> needs element_id="..." naming the element of the included model it changes',
                el,
            )
            return
        eid = eid_attr.value.strip()
        if eid.endswith("::") or "::::" in eid or eid.startswith("::"):
            self.out.append(
                error("ATTRIBUTE_INVALID", f"element_id '{eid}' has an empty name around '::'", eid_attr.value_span)
            )
            return
        action_attr = el.attr("action")
        action = action_attr.value.strip() if action_attr is not None else None
        if action_attr is not None and action not in ACTIONS:  # (action is None without the attribute)
            self.out.append(
                error(
                    "ATTRIBUTE_INVALID",
                    f"action '{action}' is not one of add, modify, remove, replace",
                    action_attr.value_span,
                )
            )
            return
        if action == "add":
            self._add(el, eid)
            return
        segs = eid.split("::") if eid else []
        hit = self._find(segs, el.tag) if segs else None
        if hit is None:
            self.out.append(
                error(
                    "ELEMENT_MISSING",
                    f"the included model has no <{el.tag}> '{eid}' to {action or 'modify'}",
                    eid_attr.value_span,
                )
            )
            return
        path, m, target, through = hit
        if action is None:
            self._children(el, target, path, through)
        elif action == "remove":
            if isinstance(target, Named) and not through:
                self._rebuild(path, lambda mm: _remove(mm, target))
        elif action == "replace":
            if el.attr("name") is None:
                self._err("ATTRIBUTE_MISSING", f"the replacement <{el.tag}> needs a name attribute", el)
                return
            if isinstance(target, Named) and not through:
                new = self._build(el)
                if new is not None:
                    self._rebuild(path, lambda mm: _swap(mm, target, new))
        elif action == "modify":
            pose_el = el.child("pose")
            if pose_el is not None and isinstance(target, Named) and not through:
                self._set_pose(path, target, el, pose_el)

    def _add(self, el: XmlElement, eid: str) -> None:
        name_attr = el.attr("name")
        if name_attr is None:
            self._err("ATTRIBUTE_MISSING", f"the <{el.tag}> to add needs a name attribute", el)
            return
        if not name_attr.value.strip():
            self.out.append(
                error("ATTRIBUTE_INVALID", "the name of an added element cannot be empty", name_attr.value_span)
            )
            return
        parent = self._find_parent(eid)
        if parent is None:
            span = el.attributes["element_id"].value_span  # (the caller read element_id)
            self.out.append(
                error(
                    "ELEMENT_MISSING",
                    f"the included model has no element '{eid}' to add <{el.tag} name='{name_attr.value}'> to",
                    span,
                )
            )
            return
        path, m, target, through = parent
        name = name_attr.value.strip()
        if isinstance(target, Model):
            if el.tag in _FRAME_TAGS:
                if any(x.name == name for x in target.members):
                    self.out.append(
                        error(
                            "DUPLICATE_NAME",
                            f"the included model already has an element named '{name}'",
                            name_attr.value_span,
                        )
                    )
                    return
                new = self._build(el)
                if new is not None and not through:
                    full = path if target is self.model else [*path, target.name]
                    self._rebuild(full, lambda mm: _append(mm, new))
                return
            parent_el = target.element
        elif isinstance(target, Named):
            parent_el = target.element
        else:
            parent_el = target
        if el.tag != "plugin" and any(
            c.tag == el.tag and c.get("name") == name for c in parent_el.children
        ):  # plugins may share names
            self.out.append(
                error(
                    "DUPLICATE_NAME",
                    f"<{el.tag} name='{name}'> already exists in '{eid}' of the included model",
                    name_attr.value_span,
                )
            )

    def _children(self, el: XmlElement, target, path: list[str], through: bool) -> None:
        target_el = target.element if isinstance(target, (Named, Model)) else target
        for c in el.children:
            a = c.attr("action")
            if a is None:
                self._err(
                    "ATTRIBUTE_MISSING", f"<{c.tag}> needs an action attribute (add, modify, remove or replace)", c
                )
                continue
            act = a.value.strip()
            if act not in ACTIONS:
                self.out.append(
                    error(
                        "ATTRIBUTE_INVALID", f"action '{act}' is not one of add, modify, remove, replace", a.value_span
                    )
                )
                continue
            if act == "add":
                continue
            name = c.get("name")
            if (
                act == "replace"
                and name is None
                and c.tag in ("collision", "visual", "sensor", "link", "joint", "frame", "model")
            ):
                self._err("ATTRIBUTE_MISSING", f"the replacement <{c.tag}> needs a name attribute", c)
                continue
            found = next(
                (x for x in target_el.children if x.tag == c.tag and (name is None or x.get("name") == name)), None
            )
            if c.tag == "pose" and isinstance(target, Named) and not through and act == "modify":
                self._set_pose(path, target, el, c)
                continue
            if found is None:
                self._err(
                    "ELEMENT_MISSING",
                    f"<{c.tag}{' name=' + repr(name) if name else ''}> is not in the element to {act}",
                    c,
                )

    def _set_pose(self, path: list[str], target: Named, owner: XmlElement, pose_el: XmlElement) -> None:
        pose = self.builder.pose(owner, pose_el)
        self.out.extend(self.builder.diagnostics)
        self.builder.diagnostics = []
        new = replace(target, pose=pose)
        self._rebuild(path, lambda mm: _swap(mm, target, new))

    def _build(self, el: XmlElement) -> Named | None:
        b = self.builder
        if el.tag == "link":
            x: Named = b.link(el)
        elif el.tag == "joint":
            x = b.joint(el)
        elif el.tag == "frame":
            x = b.frame(el)
        elif el.tag == "model":
            nested = b.models_under(el)
            x = b.model(el, nested)
        else:
            return None
        self.out.extend(b.diagnostics)
        b.diagnostics = []
        return x


def _field_of(x: Named) -> str:
    if isinstance(x, Model):
        return "models"
    if isinstance(x, Link):
        return "links"
    if isinstance(x, Joint):
        return "joints"
    if isinstance(x, Frame):
        return "frames"
    raise TypeError(x)


def _swap(m: Model, old: Named, new: Named) -> Model:
    f = _field_of(old)
    changed: dict[str, Any] = {f: tuple(new if x is old else x for x in getattr(m, f))}
    return replace(m, **changed, members=tuple(new if x is old else x for x in m.members))


def _remove(m: Model, old: Named) -> Model:
    f = _field_of(old)
    changed: dict[str, Any] = {f: tuple(x for x in getattr(m, f) if x is not old)}
    return replace(m, **changed, members=tuple(x for x in m.members if x is not old))


def _append(m: Model, new: Named) -> Model:
    f = _field_of(new)
    changed: dict[str, Any] = {f: (*getattr(m, f), new)}
    return replace(m, **changed, members=(*m.members, new))


def apply_params(
    params: XmlElement,
    model: Model,
    xml: XmlDocument,
    version: tuple[int, int],
    included_model: Callable[[Model, object], Model | None],
) -> tuple[Model, list[Diagnostic]]:
    """The included ``model`` with ``params`` applied, and what was wrong with them."""
    ap = _Applier(xml, version, model, included_model)
    result = ap.apply(params)
    return result, ap.out


__all__ = ["apply_params", "params_element"]
