"""The XML tree of documents caught mid-typing, as completion sees them."""

from __future__ import annotations

from sdformat_lsp.xml import parse


def _names(el) -> list[str]:
    return [c.get("name") or c.tag for c in el.children]


def test_a_start_tag_cut_short_by_the_next_element_does_not_swallow_its_siblings() -> None:
    doc = parse(
        '<sdf version="1.9">\n  <model name="m">\n    <link name="L"/>\n'
        '    <frame name="F" attached_to="\n    <link name="K"/>\n  </model>\n</sdf>'
    )
    model = doc.root.children[0]
    assert _names(model) == ["L", "K"]  # the frame being typed is out of the analysed tree...
    (frame,) = doc.half_typed  # ...kept for completion, with its parent
    assert frame.parent is model and frame.get("name") == "F"
    assert doc.element_at(frame.attr("attached_to").vs) is frame
    assert frame.children == [] and frame.attr("attached_to").terminated is False
    assert any(p.is_error for p in doc.problems)


def test_a_start_tag_cut_short_keeps_its_children_when_its_end_tag_follows() -> None:
    doc = parse(
        '<sdf version="1.9">\n  <model name="m" canonical_link="\n    <link name="L"/>\n'
        '    <frame name="F"><pose>0 0 0 0 0 0</pose></frame>\n  </model>\n</sdf>'
    )
    model = doc.root.children[0]
    assert _names(model) == ["L", "F"]
    assert model.closed
