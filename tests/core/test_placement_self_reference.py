"""A placement frame whose pose can only be found through the model it places.

Found by the completion work: a model placed by a joint that names itself as its child
made ``pose(model)`` apply the placement frame, whose pose fell back to ``pose(model)``
again, until the interpreter's stack gave out: ``check --frames`` crashed, and hover and
completion on a reference to the model failed. The placement cannot be applied; the pose
as written is used, as for any placement frame that does not resolve, and the checks say why.
"""

from __future__ import annotations

import pytest

from sdformat_lsp.features.completion import frame_complete
from sdformat_lsp.features.hover import frame_hover
from sdformat_lsp.semantics import analyze

SELF_CHILD = (
    '<sdf version="1.9"><world name="w"><frame name="wf" attached_to="m"/>'
    '<model name="m" placement_frame="J"><pose>1 2 3 0 0 0</pose><link name="L"/>'
    '<joint name="J" type="fixed"><parent>L</parent><child>J</child></joint></model></world></sdf>'
)
NESTED = (
    '<sdf version="1.9"><model name="outer"><link name="base"/>'
    '<frame name="f" attached_to="m"/>'
    '<model name="m" placement_frame="J"><pose>1 2 3 0 0 0</pose><link name="L"/>'
    '<joint name="J" type="fixed"><parent>L</parent><child>J</child></joint></model></model></sdf>'
)


@pytest.mark.parametrize("text", [SELF_CHILD, NESTED], ids=["world", "nested"])
def test_a_placement_frame_that_needs_its_own_model_is_not_applied(text):
    a = analyze(text, "/tmp/self_child.sdf")
    assert any(d.code == "JOINT_CHILD_LINK_INVALID" for d in a.diagnostics)
    frames = {f["name"]: f for f in a.frames()}  # raised RecursionError
    m = frames["m"]
    assert m["pose"][:3] == pytest.approx([1, 2, 3])  # as written: the placement cannot apply
    offset = text.index('attached_to="m"') + len('attached_to="')
    hover = frame_hover(a, offset, True)
    assert hover is not None and "`m`" in hover.text
    assert frame_complete(a, offset) is not None
