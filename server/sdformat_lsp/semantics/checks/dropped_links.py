"""A URDF link without mass, reported once with what its loss causes.

libsdformat's URDF conversion leaves out a link without a positive mass (no
``<inertial>``, or a mass of zero) together with every link below it. Two
consequences follow, and libsdformat reports each as an error of its own:
the frames that fixed joints left on those links are attached to links that
no longer exist (one error per frame), and, when the link was the root, the
model has no link at all. A robot whose root link has no ``<inertial>`` (a
common way to write a URDF meant for RViz only) thus gets a dozen errors for
one mistake, most of them on ``<parent link>`` texts that are right as written,
each suggesting another link.

Here those consequences are folded into the one diagnostic of the cause, on
the name of the link without mass, with the consequences as related places;
it becomes an error when one of them was (libsdformat's verdict is kept). The
conversion (``formats/urdf/to_model.py``) marks each such diagnostic with the
links it took (``gone``) and the references to them (``gone_refs``).
"""

from __future__ import annotations

from dataclasses import replace

from ...diagnostics import Diagnostic, Related, Severity
from .base import ROOT_NOT_STATIC

FOLDED = ("FRAME_ATTACHED_TO_INVALID",)
EMPTIES_MODEL = "empties_model"  # in data: the link took every link of the model (it holds MODEL_WITHOUT_LINK)


def fold_dropped_links(conversion: list[Diagnostic], checked: list[Diagnostic], has_links: bool, text: str) -> None:
    """Fold, in place, the errors of ``checked`` that follow from a massless link of ``conversion``
    into that link's diagnostic (``text``: the document's, for the names the related places quote)."""
    causes = [i for i, d in enumerate(conversion) if d.data.get("urdf") == "massless"]
    if not causes:
        return
    owner: dict[tuple[int, int], int] = {}
    for i in causes:
        for span in conversion[i].data.get("gone_refs", ()):
            owner.setdefault((span.start, span.end), i)
    folded: dict[int, list[Diagnostic]] = {i: [] for i in causes}
    empty: Diagnostic | None = None
    kept: list[Diagnostic] = []
    for d in checked:
        at = owner.get((d.span.start, d.span.end)) if d.code in FOLDED else None
        if at is not None:
            folded[at].append(d)
        elif d.code == "MODEL_WITHOUT_LINK" and not has_links and empty is None:
            empty = d
        else:
            kept.append(d)
    checked[:] = kept
    if empty is not None:  # the root's link took every link: the first cause is the model's
        folded[causes[0]].insert(0, empty)
    for i in causes:
        consequences = folded[i]
        if not consequences:
            continue
        cause = conversion[i]
        frames = [d for d in consequences if d.code != "MODEL_WITHOUT_LINK"]
        parts: list[str] = []
        if any(d.code == "MODEL_WITHOUT_LINK" for d in consequences):
            parts.append("the model is left without a link, which libsdformat refuses")
        if frames:
            n = len(frames)
            parts.append(
                f"{n} frame{'s' if n != 1 else ''} that fixed joints leave on those links "
                f"{'are' if n != 1 else 'is'} attached to nothing, an error each (listed as related)"
            )
        then = f". Then {', and '.join(parts)}. Give it an <inertial>"
        message = cause.message.replace("; give it an <inertial>", then, 1)
        data = dict(cause.data)
        if parts and parts[0].startswith("the model is left"):
            data[EMPTIES_MODEL] = True
        if frames:
            data.pop(ROOT_NOT_STATIC, None)
        else:
            data.update({k: v for k, v in consequences[0].data.items() if k == ROOT_NOT_STATIC})
        conversion[i] = replace(
            cause,
            severity=Severity.ERROR if any(d.is_error for d in consequences) else cause.severity,
            message=message,
            related=cause.related
            + tuple(
                Related(
                    d.span,
                    f"a frame left by this fixed joint is attached to '{text[d.span.start : d.span.end]}', which is left out",
                    d.path,
                )
                for d in frames
            ),
            data=data,
        )
