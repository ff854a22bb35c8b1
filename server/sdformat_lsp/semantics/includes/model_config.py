"""Checking a ``model.config`` (the manifest of a Gazebo model directory).

It is not SDFormat: its root is ``<model>``, and each ``<sdf version="X">``
entry names the model's file for one SDFormat version. libsdformat loads
the entry :func:`~.resources.select_entry` picks, the same function the
include resolver uses, so what this check calls "the entry used" is what
an ``<include>`` of the directory loads.
"""

from __future__ import annotations

import os
import stat

from ...diagnostics import Diagnostic, error, warning
from ...xml import XmlDocument

MODEL_CONFIG = "model.config"
KNOWN = {"1.0", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11", "1.12"}


def check_model_config(xml: XmlDocument, path: str) -> list[Diagnostic]:
    """Located diagnostics for a model.config whose text is ``xml``."""
    out: list[Diagnostic] = []
    root = xml.root
    if root is None:
        return out  # the XML problems already say why
    if root.tag != "model":
        out.append(
            error(
                "PARSING_ERROR",
                f"a model.config has a <model> root element (libsdformat looks for it), not <{root.tag}>",
                root.tag_span,
            )
        )
        return out
    entries = root.children_named("sdf")
    if not entries:
        out.append(
            error(
                "PARSING_ERROR",
                'this model.config has no <sdf version="...">model.sdf</sdf> entry naming the model\'s file',
                root.tag_span,
            )
        )
        return out
    from .resources import PARSER_VERSION, dotted_version, select_entry  # here: a check of an .sdf never needs them

    directory = os.path.dirname(os.path.abspath(path))
    versions = [e.get("version") for e in entries]
    chosen, _ = select_entry(versions)
    newest = ".".join(map(str, PARSER_VERSION))
    for i, e in enumerate(entries):
        used = i == chosen
        va = e.attr("version")
        if va is None:
            note = (
                "it is the one used, as no entry has a usable version"
                if used
                else "it is used only when no entry has a version"
            )
            out.append(
                warning(
                    "ATTRIBUTE_MISSING",
                    f'this <sdf> entry has no version attribute: {note}; add version="{newest}" (or the file\'s version)',
                    e.tag_span,
                )
            )
        else:
            v = va.value.strip()
            vt = dotted_version(v)
            if v not in KNOWN:
                if vt is not None and vt > PARSER_VERSION + (0,):
                    out.append(
                        error(
                            "ATTRIBUTE_INVALID",
                            f"SDFormat {v} does not exist (the newest is {newest}): libsdformat ignores this entry",
                            va.value_span,
                        )
                    )
                else:
                    out.append(
                        error(
                            "ATTRIBUTE_INVALID",
                            f"'{v}' is not an SDFormat version: use one of 1.0, 1.2 ... {newest}",
                            va.value_span,
                        )
                    )
        out.extend(_entry_file(e, directory, used))
    return out


def _entry_file(e, directory: str, used: bool) -> list[Diagnostic]:
    name = (e.text or "").strip()
    span = e.text_span or e.tag_span
    if not name:
        msg = "this <sdf> entry names no file" + (
            ": it is the entry libsdformat uses, so the model cannot be loaded" if used else ""
        )
        return [error("ELEMENT_MISSING", msg, e.tag_span)]
    target = os.path.join(directory, name)
    try:
        st = os.stat(target)
    except OSError as exc:
        reason = "does not exist" if isinstance(exc, FileNotFoundError) else f"cannot be read ({exc.strerror or exc})"
        used_note = " (this is the entry libsdformat uses)" if used else ""
        return [error("FILE_READ", f"{name} {reason} in {directory}{used_note}", span)]
    if not stat.S_ISREG(st.st_mode):
        return [error("FILE_READ", f"{name} is not a regular file", span)]
    return []


__all__ = ["MODEL_CONFIG", "check_model_config"]
