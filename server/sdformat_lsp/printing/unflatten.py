"""The 1.7 to 1.8 conversion of a world's flattened models (``1_7.convert``'s ``<unflatten/>``,
``Converter::Unflatten`` and ``FindNewModelElements`` in libsdformat).

Old tools wrote a nested model into a world flat: its links, joints and frames named
``M1::L1`` in the parent model, its frame as ``<frame name="M1::__model__">``. SDFormat 1.8
forbids ``::`` in names, so libsdformat moves them back into a ``<model name="M1">``: each
link, joint, frame, model and gripper whose name starts with ``M1`` goes into the new model,
with the prefix cut from its name, from ``relative_to`` (its pose's, and the poses of a link's
visuals, collisions, sensors...), ``attached_to``, a joint's ``<parent>``, ``<child>`` and axes'
``expressed_in``, and a gripper's links. The frame ``M1::__model__`` is not kept: its pose
becomes the model's and its ``attached_to`` the model's ``canonical_link``. New models are
appended to the model they came from, and unflattened in turn.

This module plans the moves on a virtual copy of the tree (the XML is never changed), in
libsdformat's order, quirks included (only the first nested model without ``::`` is searched,
and a name matches a prefix by its first characters). The writer then deletes what moved,
renames through :class:`params.Ops`, and writes each new model before the end tag of the
model it joined. A reference that lacks the prefix libsdformat asserts is refused.
"""

from __future__ import annotations

from .params import Ops

FLAT_TAGS = ("frame", "joint", "link", "model", "gripper")


class UnflattenRefused(Exception):
    def __init__(self, message: str, element) -> None:
        super().__init__(message)
        self.message, self.element = message, element


class VModel:
    """A model libsdformat creates: its name, canonical link, pose (the old ``__model__`` frame's) and children."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.canonical: str | None = None
        self.pose_el = None
        self.children: list = []  # _Item


class _Item:
    """A child in the virtual tree: a real element (with its current name) or a new model."""

    def __init__(self, el=None, new: VModel | None = None) -> None:
        self.el, self.new = el, new
        self.tag = el.tag if el is not None else "model"
        self.name = el.get("name") if el is not None else new.name if new is not None else None  # one is given

    def kids(self) -> list:
        if self.new is not None:
            return self.new.children
        if not hasattr(self, "_kids"):
            self._kids = [_Item(c) for c in self.el.children]
        return self._kids


class Plan:
    """What the writer does: ``moved`` (ids deleted in place), ``ops`` (renames), ``appended``
    (id of a real model element -> the new models written before its end tag)."""

    def __init__(self) -> None:
        self.moved: set[int] = set()
        self.ops: dict[int, Ops] = {}
        self.appended: dict[int, list[VModel]] = {}

    def merge(self, other: "Plan") -> None:
        self.moved |= other.moved
        self.ops.update(other.ops)
        self.appended.update(other.appended)

    def op(self, el) -> Ops:
        found = self.ops.get(id(el))
        if found is None:
            found = self.ops[id(el)] = Ops()
        return found


def plan(world) -> Plan:
    out = Plan()
    for c in world.children:
        if c.tag == "model":
            _unflatten(_Item(c), out)
    return out


def _unflatten(item: _Item, out: Plan) -> None:
    kids = item.kids()
    first_new = None
    i = 0
    while i < len(kids):
        e = kids[i]
        if e is first_new:
            break
        i += 1
        if e.tag not in FLAT_TAGS or e.name is None:
            continue
        found = e.name.find("::")
        if found < 0:
            if e.tag == "model":
                _unflatten(e, out)
                break
            continue
        new = VModel(e.name[:found])
        if _find_new_model_elements(item, new, found + 2, out):
            new_item = _Item(new=new)
            _unflatten(new_item, out)
            kids.append(new_item)
            if item.el is not None:
                out.appended.setdefault(id(item.el), []).append(new)
            i = 0
            if first_new is None:
                first_new = new_item


def _strip(value: str, prefix: str, cut: int, what: str, el) -> str:
    if not value.startswith(prefix):
        raise UnflattenRefused(
            f"{what} '{value}' does not start with '{prefix}', which libsdformat requires to unflatten it", el
        )
    return value[cut:]


def _find_new_model_elements(item: _Item, new: VModel, cut: int, out: Plan) -> bool:
    prefix = new.name
    moved_any = False
    for e in list(item.kids()):
        name = e.name or ""
        if (not name or not name.startswith(prefix) or e.tag not in FLAT_TAGS) and e.tag != "gripper":
            continue
        el = e.el
        if el is None:
            continue  # a model created here: its name has no prefix left to match
        child_name = None
        if name.startswith(prefix):
            child_name = e.name = name[cut:]
            out.op(el).attrs["name"] = child_name
        pose = el.child("pose")
        rel = pose.attr("relative_to") if pose is not None else None
        if rel is not None and rel.value.startswith(prefix):
            out.op(pose).attrs["relative_to"] = rel.value[cut:]
        moved = el
        if e.tag == "frame":
            att = el.attr("attached_to")
            if att is not None:
                stripped = _strip(att.value, prefix, cut, "attached_to", el)
                out.op(el).attrs["attached_to"] = stripped
                if child_name == "__model__":
                    new.canonical = stripped
                    new.pose_el = pose
                    out.moved.add(id(el))
                    item.kids().remove(e)
                    moved_any = True
                    continue
        elif e.tag == "link":
            for c in el.children:
                _update_pose(c, prefix, cut, out)
        elif e.tag == "joint":
            for tag in ("parent", "child"):
                ref = el.child(tag)
                if ref is not None and ref.text.strip():
                    out.op(ref).text = _strip(ref.text.strip(), prefix, cut, f"<{tag}>", ref)
            for tag in ("axis", "axis2"):
                axis = el.child(tag)
                xyz = axis.child("xyz") if axis is not None else None
                exp = xyz.attr("expressed_in") if xyz is not None else None
                if exp is not None:
                    out.op(xyz).attrs["expressed_in"] = _strip(exp.value, prefix, cut, "expressed_in", xyz)
            for c in el.children:
                if c.tag == "sensor":
                    _update_pose(c, prefix, cut, out)
        elif e.tag == "gripper":
            links = [g for g in el.children if g.tag == "gripper_link" and g.text.strip()]
            if any(not g.text.strip().startswith(prefix) for g in links):
                continue
            for g in links:
                out.op(g).text = g.text.strip()[cut:]
            palm = el.child("palm_link")
            if palm is not None and palm.text.strip():
                out.op(palm).text = _strip(palm.text.strip(), prefix, cut, "<palm_link>", palm)
        out.moved.add(id(moved))
        item.kids().remove(e)
        new.children.append(e)
        moved_any = True
    return moved_any


def _update_pose(el, prefix: str, cut: int, out: Plan) -> None:
    pose = el.child("pose")
    rel = pose.attr("relative_to") if pose is not None else None
    if rel is not None:
        out.op(pose).attrs["relative_to"] = _strip(rel.value, prefix, cut, "relative_to", pose)
    camera = el.child("camera")
    if camera is not None:
        _update_pose(camera, prefix, cut, out)


__all__ = ["Plan", "UnflattenRefused", "VModel", "plan"]
