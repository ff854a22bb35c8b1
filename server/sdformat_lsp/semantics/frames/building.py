"""Building the scopes and nodes of the frame graphs: worlds, models, includes and merges.

One part of :class:`~.frames.FrameGraphs` (a mixin), kept in its own module so
that the class stays short enough to read; it fills the tables ``FrameGraphs.__init__``
creates and leaves the edges to :mod:`.edges`.
"""

from __future__ import annotations

from dataclasses import replace

from ...model import Frame, Include, Joint, Link, Model, Ref, World, version_tuple
from ...xml import XmlElement
from .vertices import MODEL_FRAME, WORLD, FrameNode, GraphTables, Scope, MergedFrames, weak_ref
from .order import in_element_order, LegacyNames, canonical_name


class ScopeBuilding(GraphTables):
    """Creates every scope and node of a document, expanding includes within the instance budget."""

    def _node(self, kind: str, name: str, scope: Scope | None, entity: object | None) -> FrameNode:
        n = FrameNode(kind, name, scope, entity)
        self.nodes.append(n)
        return n

    def _add_member(self, scope: Scope, node: FrameNode) -> None:
        if node.name and node.name not in scope.frames:
            scope.frames[node.name] = node

    def _world_scope(self, world: World) -> Scope:
        scope = Scope("world", world.name, world, None, version=self.version)
        self.scopes.append(scope)
        wnode = self._node("world", WORLD, None, world)
        wnode.inner = scope
        scope.node = wnode
        scope.frames[WORLD] = wnode
        for member in world.members:
            if isinstance(member, Model):
                self._model_scopes(member, scope)
            elif isinstance(member, Frame):
                self._add_member(scope, self._node("frame", member.name, scope, member))
            elif isinstance(member, Joint):
                self._add_member(scope, self._node("joint", member.name, scope, member))
        for inc in world.includes:
            self._include(inc, scope)
        return scope

    def _include(self, inc: Include, scope: Scope) -> None:
        """Resolve ``inc`` and add what it brings at its place in ``scope``'s element order."""
        if self.include_resolver is None or self.over_budget is not None:
            return
        model = self.include_resolver(inc, scope)
        if model is None:
            if inc.uri is not None and inc.uri.text:  # an include without a URI brings nothing (and is reported)
                self.holes.setdefault(id(scope), []).append(inc)
            return
        own = scope.path is None  # written in this document, not in an included file
        self.instances += 1
        if self.instances > self.max_instances:
            self.over_budget = inc if own or self._expanding is None else self._expanding
            return
        if own:
            self._expanding = inc
        try:
            flawed = id(inc) in getattr(self.include_resolver, "flawed", ())
            if inc.merge:
                view = self._merge(model, inc, scope)
                self.included.append((inc, view))
                if flawed:
                    self.flawed.add(id(view))
                # libsdformat copies the merged elements into the including model where the include was
                scope.links_order.extend(view.links_order)
                scope.models_order.extend(view.models_order)
            else:
                child = self._model_scopes(model, scope)
                self.included.append((inc, child))
                if flawed:
                    self.flawed.add(id(child))
                scope.models_order.append(child)
        finally:
            if own:
                self._expanding = None

    def _merge(self, model: Model, inc: Include, scope: Scope) -> Scope:
        """``<include merge="true">``: the model's entities join ``scope`` (libsdformat 1.9+).

        A proxy frame ``_merged__NAME__model__`` in ``scope`` stands for the
        included model frame: it is attached to the model's canonical link (as
        libsdformat chooses it for the model alone, merged links of its own
        merges included) and posed by the include (or the model's own pose).
        The merged entities live in ``scope`` under their own names; what they
        wrote as ``__model__`` (and every default) means the proxy. They are
        kept in a *view* of ``scope`` (same names, parent and children;
        ``__model__`` is the proxy; ``path`` is the included file) so that they
        resolve exactly as libsdformat resolves them after merging. A world
        takes no links.
        """
        pose = model.pose
        if (
            pose.relative_to is None or not pose.relative_to.text
        ):  # not relative to the canonical link it is attached to
            pose = replace(
                pose,
                relative_to=Ref(
                    MODEL_FRAME if scope.kind == "model" else WORLD, inc.element.tag_span, "relative_to", inc.element
                ),
            )
        proxy_entity = Frame("frame", f"_merged__{model.name}__model__", None, inc.element, pose)
        proxy = self._node("frame", proxy_entity.name, scope, proxy_entity)
        self._add_member(scope, proxy)
        path = getattr(model.source, "path", None) if model.source is not None else scope.path
        view = Scope(
            scope.kind,
            scope.name,
            model,
            scope.parent,
            node=proxy,
            frames=MergedFrames(scope.frames, proxy),
            children=scope.children,
            version=self.version,
            path=path,
        )
        self.scopes.append(view)
        self.merged_into[id(view)] = (inc, scope)
        view._into = weak_ref(scope)
        self.merged_into[id(proxy)] = (inc, scope)
        if inc.placement_frame is not None and inc.placement_frame.text and inc.pose is not None:
            self.merged_placement[id(proxy)] = (inc.placement_frame, view)
        for item in in_element_order(model):
            if isinstance(item, Include):
                self._include(item, view)
            elif isinstance(item, Model):
                view.models_order.append(self._model_scopes(item, view))
            elif isinstance(item, Link):
                if scope.kind == "world":
                    continue  # MERGE_INCLUDE_UNSUPPORTED, reported by the resolver
                node = self._node("link", item.name, view, item)
                self._add_member(view, node)
                view.links_order.append(node)
            elif isinstance(item, Joint):
                self._add_member(view, self._node("joint", item.name, view, item))
            elif isinstance(item, Frame):
                self._add_member(view, self._node("frame", item.name, view, item))
        canonical: str | None = (
            model.canonical_link.text
            if model.canonical_link is not None and model.canonical_link.text
            else canonical_name(view)
        )
        if scope.kind == "world" and canonical and "::" not in canonical:
            canonical = None  # a link of the merged model itself: a world takes none (reported by the resolver)
        if canonical:
            proxy.entity = replace(
                proxy_entity, attached_to=Ref(canonical, inc.element.tag_span, "attached_to", inc.element)
            )
        return view

    def _model_scopes(self, model: Model, parent: Scope | None) -> Scope:
        """Create the scope of ``model`` and of every model nested in it, iteratively."""
        top: Scope | None = None
        # (model, parent scope, index of its place in the parent's models_order or -1)
        stack: list[tuple[Model, Scope | None, int]] = [(model, parent, -1)]
        while stack:
            m, p, slot = stack.pop()
            written = getattr(m.source, "version", None) if m.source is not None else None
            version = version_tuple(written) if written else (0, 0)
            if version == (0, 0):  # written in the analysed document, or no usable version: the enclosing file's
                version = p.version if p is not None else self.version
            scope = Scope(
                "model",
                m.name,
                m,
                p,
                version=version,
                path=getattr(m.source, "path", None) if m.source else (p.path if p else None),
            )
            self.scopes.append(scope)
            node = self._node("model", m.name, p, m)
            node.inner = scope
            node.static = m.static  # libsdformat: a model nested in a static model is not static itself
            scope.node = node
            scope.frames[MODEL_FRAME] = node
            if top is None:
                top = scope
            if p is not None:
                self._add_member(p, node)
                if m.name and m.name not in p.children:
                    p.children[m.name] = scope
                if slot >= 0:
                    p.models_order[slot] = scope
            nested: list[tuple[Model, Scope, int]] = []
            items = in_element_order(m)
            text = self._document_text(m.element) if m.links else None  # the analysed document's, if m is in it
            # libsdformat renames clashing names before 1.7; a lone item clashes with nothing (its
            # name comes back unchanged), which spares 3k_shapes (1.6, one link per model) the table
            legacy = LegacyNames() if scope.version < (1, 7) and len(items) > 1 else None
            for item in items:
                if isinstance(item, Include):
                    before = len(scope.models_order)
                    self._include(item, scope)
                    if legacy is not None and len(scope.models_order) > before and scope.models_order[-1] is not None:
                        legacy.name(scope.models_order[-1].name, "model")
                elif isinstance(item, Model):
                    scope.models_order.append(None)  # filled when the nested model's scope is made
                    nested.append((item, scope, len(scope.models_order) - 1))
                    if legacy is not None:
                        legacy.name(item.name, "model")
                elif isinstance(item, Link):
                    link = self._node("link", legacy.name(item.name, "link") if legacy else item.name, scope, item)
                    self._add_member(scope, link)
                    scope.links_order.append(link)
                    el = item.element
                    # the walk for the poses inside the link finds nothing when the link's text never
                    # says relative_to (see ``_document_text`` for why that text holds them all)
                    # (a link of another format, an MJCF <body>, holds no <pose>: its subtree is its children's)
                    if el.tag == "link" and (
                        text is None
                        or el.parent is not m.element
                        or text.find("relative_to", el.ts, el.ts + el._end) >= 0
                    ):
                        self._inner_poses(item, scope)
                elif isinstance(item, Joint):
                    self._add_member(
                        scope,
                        self._node("joint", legacy.name(item.name, "joint") if legacy else item.name, scope, item),
                    )
                elif isinstance(item, Frame):
                    self._add_member(
                        scope,
                        self._node("frame", legacy.name(item.name, "frame") if legacy else item.name, scope, item),
                    )
            stack.extend(reversed(nested))
        assert top is not None
        return top

    def _inner_poses(self, link: Link, scope: Scope) -> None:
        """Poses of a link's visuals, collisions, sensors, lights...: their relative_to names a frame of the model.

        In a merged link, ``__model__`` there is the model the link joined, not
        the proxy frame: libsdformat's merge (parser.cc) rewrites ``__model__``
        only in the merged links', joints' and frames' own poses, parents,
        children and axes, and a visual's pose is then resolved in the graph of
        the model it joined.
        """
        scope = self.inner_pose_scope(scope)
        # Depth first, last child first. Only elements that can matter go on the stack (those with
        # children, and poses): a leaf that is not a pose gives nothing when taken off it, so
        # leaving it out (most of a link's elements) changes neither the poses found nor their order.
        stack = [c for c in link.element.children if c.children and c.tag != "pose"]
        pop, push = stack.pop, stack.append
        while stack:
            el = pop()
            tag = el.tag
            if tag == "pose":
                a = el.attributes.get("relative_to")
                if a is not None and a.value:
                    self.inner_poses.append((Ref(a.value, a.value_span, "relative_to", el), scope))
                continue
            if tag == "plugin" or ":" in tag:
                continue  # free-form content
            for c in el.children:
                if c.children or c.tag == "pose":
                    push(c)

    def _document_text(self, el: XmlElement) -> str | None:
        """The analysed document's text when ``el`` is one of its elements, else None.

        Then ``el``'s offsets index that text, and since the document has no XML problem (else
        there is no text here) every element is well-formed: its text holds its whole subtree,
        attribute names as written. Elements of included files (another tree) get None. An
        element is the document's when its ancestors lead to the document's root; the answer
        is remembered for every element on the way, so each is climbed once.
        """
        if self._text is None:
            return None
        memo = self._in_document
        path = []
        cur: XmlElement | None = el
        found = False
        while cur is not None:
            known = memo.get(id(cur))
            if known is not None:
                found = known
                break
            if cur is self._text_root:
                found = True
                break
            path.append(cur)
            cur = cur.parent
        for p in path:
            memo[id(p)] = found
        return self._text if found else None

    def inner_pose_scope(self, view: Scope) -> Scope:
        """Where the poses inside a link or joint of ``view`` resolve: ``view`` itself, or for a
        merged view its names with ``__model__`` meaning the scope it joined (see ``_inner_poses``);
        the path stays the included file's, so that problems are located there."""
        if view._into is None:
            return view
        inner = self._inner_views.get(id(view))
        if inner is None:
            real = view.real
            inner = Scope(
                view.kind,
                view.name,
                view.entity,
                view.parent,
                node=real.node,
                frames=real.frames,
                children=view.children,
                version=view.version,
                path=view.path,
            )
            inner._into = weak_ref(real)
            self._inner_views[id(view)] = inner
        return inner
