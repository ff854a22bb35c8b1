"""libsdformat's conversions of documents older than SDFormat 1.6, as text splices.

libsdformat brings an old document up one version at a time (``sdf/1.N/1_M.convert``); the
rules that change documents from 1.3 on are these, and each is applied here when the
document's version is below the rule's and the printed version above it:

- 1.3 to 1.4 (``1_3.convert``): in a world's ``<physics>``, ``<update_rate>`` becomes
  ``<real_time_update_rate>``, and ``<ode><solver><dt>`` or ``<bullet><dt>`` becomes
  ``<max_step_size>``;
- 1.4 to 1.5 (``1_4.convert``): the axes of the joints of a world's models and of a root
  model were expressed in the model frame in 1.4, so they get
  ``<use_parent_model_frame>true</use_parent_model_frame>`` (which the 1.6 to 1.7 rule then
  turns into ``<xyz expressed_in="__model__">``, see the writer); an ``<actor static="...">``
  attribute becomes a ``<static>`` element;
- 1.5 to 1.6 (``1_5.convert``): a world's ``<physics><gravity>`` and
  ``<physics><magnetic_field>`` move to the world; an IMU's single ``<noise>`` (with ``<type>``,
  ``<rate>`` and ``<accel>``) is spread over ``<angular_velocity>`` and
  ``<linear_acceleration>``, one ``<noise type="...">`` per axis, as libsdformat's rules copy it.

The writer also applies 1.6 to 1.7's axis rule (``1_6.convert``) with ``axis_expressed_in_model``.

1.2 to 1.3 (``1_2.convert``) changes nothing, so a 1.2 document under an ``<sdf>`` root is
converted as a 1.3 one (``converted_from``). 1.0 to 1.2 (``1_0.convert``: some 280 attributes
moved into elements) is ``from_1_0.py``'s, from a generated table; the writer prints its result. A
``<gazebo>`` root (1.0 to 1.2) libsdformat does not read at all (its converter needs ``<sdf>``).
"""

from __future__ import annotations

from .splice import drop_attribute, escape_text, indent_of, line_start

OLDEST = (1, 2)


def converted_from(source: tuple[int, int]) -> tuple[int, int]:
    """The version whose rules a document of ``source`` is converted by: 1.2 as 1.3 (1_2.convert is empty)."""
    return (1, 3) if source == (1, 2) else source


_RATE = ("mean", "stddev", "bias_mean", "bias_stddev")


class Legacy:
    """The pre-1.6 rules for one source text (of version ``source``) printed as ``target``."""

    def __init__(self, source: tuple[int, int], target: tuple[int, int], text: str, newline: str) -> None:
        self.step_1_4 = source <= (1, 3) < target
        self.step_1_5 = source <= (1, 4) < target
        self.step_1_6 = source <= (1, 5) < target
        self.text = text
        self.nl = newline

    def axis_in_model_frame(self, axis) -> bool:
        """1.4 to 1.5: is this axis one libsdformat gives ``use_parent_model_frame`` true?"""
        if not self.step_1_5:
            return False
        joint = axis.parent
        model = joint.parent if joint is not None else None
        owner = model.parent if model is not None else None
        return model is not None and model.tag == "model" and owner is not None and owner.tag in ("world", "sdf")

    def visit(self, el, repl: list) -> bool:
        """Add the splices ``el`` needs; True when ``el`` was rewritten whole (its children are done)."""
        tag = el.tag
        if tag == "world":
            if self.step_1_4:
                physics = el.child("physics")
                if physics is not None:
                    self._physics_1_4(physics, repl)
            if self.step_1_6:
                physics = el.child("physics")
                for name in ("gravity", "magnetic_field") if physics is not None else ():
                    moved = physics.child(name)
                    if moved is not None:
                        self._remove(moved, repl)
                        self._insert(el, f"<{name}>{escape_text(moved.text.strip())}</{name}>", repl)
        elif tag == "actor" and self.step_1_5 and el.parent is not None and el.parent.tag in ("world", "model"):
            static = el.attr("static")
            if static is not None:
                drop_attribute(el, "static", self.text, repl)
                self._insert(el, f"<static>{escape_text(static.value)}</static>", repl)
        elif tag == "imu" and self.step_1_6 and el.child("noise") is not None:
            self._imu_1_6(el, repl)
            return True
        return False

    # -- the rules -------------------------------------------------------

    def _physics_1_4(self, physics, repl) -> None:
        rate = physics.child("update_rate")
        if rate is not None:
            self._remove(rate, repl)
            self._insert(
                physics, f"<real_time_update_rate>{escape_text(rate.text.strip())}</real_time_update_rate>", repl
            )
        for engine, path in (("ode", ("solver", "dt")), ("bullet", ("dt",))):
            el = physics.child(engine)
            for step in path:
                el = el.child(step) if el is not None else None
            if el is not None:
                self._remove(el, repl)
                self._insert(physics, f"<max_step_size>{escape_text(el.text.strip())}</max_step_size>", repl)

    def _imu_1_6(self, imu, repl) -> None:
        """``<noise><type/><rate/><accel/></noise>`` -> one ``<noise>`` per axis of each of the two groups."""
        noise = imu.child("noise")
        kind = noise.child("type")
        type_attr = f' type="{escape_text(kind.text.strip())}"' if kind is not None else ""
        groups = []
        for group, source in (("angular_velocity", "rate"), ("linear_acceleration", "accel")):
            values = noise.child(source)
            inner = ""
            if values is not None:
                inner = "".join(
                    f"<{v}>{escape_text(values.child(v).text.strip())}</{v}>"
                    for v in _RATE
                    if values.child(v) is not None
                )
            axes = ""
            if type_attr or inner:
                axes = "".join(f"<{axis}><noise{type_attr}>{inner}</noise></{axis}>" for axis in "xyz")
            groups.append(f"<{group}>{axes}</{group}>")
        start = line_start(self.text, noise.span.start)
        repl.append(
            (start, noise.span.end, "".join(self.nl + indent_of(self.text, noise.span.start) + g for g in groups))
        )

    # -- splices ---------------------------------------------------------

    def _remove(self, el, repl) -> None:
        repl.append((line_start(self.text, el.span.start), el.span.end, ""))

    def _insert(self, parent, xml: str, repl) -> None:
        """``xml`` as the first child of ``parent`` (libsdformat appends it; the order means nothing here)."""
        indent = indent_of(self.text, parent.span.start) + "  "
        if parent.self_closing:
            close = self.nl + indent_of(self.text, parent.span.start) + f"</{parent.tag}>"
            repl.append((parent.stag_end - 2, parent.stag_end, ">" + self.nl + indent + xml + close))
        else:
            repl.append((parent.stag_end, parent.stag_end, self.nl + indent + xml))


def axis_expressed_in_model(axis, text: str, repl, in_model_frame: bool) -> None:
    """libsdformat's 1_6.convert: <use_parent_model_frame>true</use_parent_model_frame> becomes
    <xyz expressed_in="__model__">, and the element goes. ``in_model_frame``: a 1.4 axis, which
    1_4.convert gives the element (after any written one, so a written one decides)."""
    flag = axis.child("use_parent_model_frame")
    if flag is None and not in_model_frame:
        return
    if flag is not None:
        repl.append((line_start(text, flag.span.start), flag.span.end, ""))
        if flag.text.strip() not in ("true", "True", "TRUE", "1"):
            return
    xyz = axis.child("xyz")
    if xyz is None:
        repl.append((axis.stag_end, axis.stag_end, '<xyz expressed_in="__model__">0 0 1</xyz>'))
    elif xyz.attr("expressed_in") is None:
        at = xyz.ts + len(xyz.tag)
        repl.append((at, at, ' expressed_in="__model__"'))


__all__ = ["OLDEST", "Legacy", "axis_expressed_in_model", "converted_from"]
