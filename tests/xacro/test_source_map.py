"""Every element, attribute and text of an expansion knows where it was written: through macro
calls (the body, with the chain of calls) and ${} substitutions (a value made from a macro
argument maps to the argument at the call); xacro's own errors are located the same way."""

from __future__ import annotations

from sdformat_lsp.formats.xacro import expand

MAIN = "/v/robot.urdf.xacro"
LIB = "/v/wheel.xacro"

LIB_TEXT = """<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="joint_to" params="parent child">
    <joint name="${child}_joint" type="fixed">
      <parent link="${parent}"/>
      <child link="${child}"/>
    </joint>
  </xacro:macro>
  <xacro:macro name="wheel" params="name mount">
    <link name="${name}"/>
    <xacro:joint_to parent="${mount}" child="${name}"/>
  </xacro:macro>
</robot>
"""

MAIN_TEXT = """<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="wheel.xacro"/>
  <link name="chassis"/>
  <xacro:wheel name="left" mount="chasis"/>
</robot>
"""


def read(path):
    files = {MAIN: MAIN_TEXT, LIB: LIB_TEXT}
    if path not in files:
        raise FileNotFoundError(2, "No such file or directory", path)
    return files[path]


def test_a_value_passed_through_two_macros_maps_to_the_argument_at_the_first_call():
    e = expand(MAIN, MAIN_TEXT, read_file=read)
    assert e.ok, e.errors
    at = e.text.index('link="chasis"') + len('link="')
    origin = e.origin(at)
    assert origin.file == LIB  # written as ${parent} in the inner macro's body
    assert LIB_TEXT[origin.span[0] : origin.span[1]] == "${parent}"
    assert [c.name for c in origin.calls()] == ["joint_to", "wheel"]
    source = origin.source  # the value itself: the argument at the call in the document
    assert source.file == MAIN
    assert MAIN_TEXT[source.span[0] : source.span[1]] == "chasis"


def test_an_element_of_a_macro_body_maps_to_the_body_with_the_chain_of_calls():
    e = expand(MAIN, MAIN_TEXT, read_file=read)
    at = e.text.index("<joint ") + 1
    origin = e.origin(at)
    assert origin.file == LIB and LIB_TEXT[origin.span[0] : origin.span[1]] == "joint"
    calls = origin.calls()
    assert [c.name for c in calls] == ["joint_to", "wheel"]
    assert calls[0].file == LIB and LIB_TEXT[calls[0].span[0] : calls[0].span[1]] == "xacro:joint_to"
    assert calls[1].file == MAIN and MAIN_TEXT[calls[1].span[0] : calls[1].span[1]] == "xacro:wheel"


def test_elements_written_in_the_document_map_to_themselves():
    e = expand(MAIN, MAIN_TEXT, read_file=read)
    at = e.text.index('<link name="chassis"') + 1
    origin = e.origin(at)
    assert origin.file == MAIN and origin.calls() == []
    assert MAIN_TEXT[origin.span[0] : origin.span[1]] == "link"
    value = e.origin(e.text.index('"chassis"') + 1)
    assert MAIN_TEXT[value.span[0] : value.span[1]] == "chassis"
    assert e.files == [MAIN, LIB]


def test_definitions_and_uses_are_recorded_with_their_places():
    e = expand(MAIN, MAIN_TEXT, read_file=read)
    macros = {d.name: d for d in e.macros}
    assert set(macros) == {"joint_to", "wheel"}
    wheel = macros["wheel"]
    assert wheel.params == ("name", "mount")
    assert wheel.name_origin.file == LIB
    assert LIB_TEXT[wheel.name_origin.span[0] : wheel.name_origin.span[1]] == "wheel"
    calls = [u for u in e.uses if u.kind == "macro" and u.name == "wheel"]
    assert len(calls) == 1 and calls[0].definition is wheel
    assert MAIN_TEXT[calls[0].origin.span[0] : calls[0].origin.span[1]] == "xacro:wheel"


def test_an_undefined_property_is_reported_on_its_name_in_the_macro_with_the_nearest_name():
    lib = LIB_TEXT.replace("${child}_joint", "${chld}_joint")

    def reader(path):
        return lib if path == LIB else read(path)

    e = expand(MAIN, MAIN_TEXT, read_file=reader)
    (error,) = [d for d in e.errors if d.severity == 1]
    assert error.path == LIB
    assert lib[error.span.start : error.span.end] == "chld"
    assert "child" in error.message  # the nearest name
    assert [r.path for r in error.related] == [LIB, MAIN]  # the calls


def test_xacro_errors_are_located():
    cases = {
        '<xacro:wheel name="x"/>': ("xacro:wheel", "mount"),
        '<xacro:wheel name="x" mount="m" size="1"/>': ("1", "size"),
        "<xacro:whel/>": ("xacro:whel", "xacro:wheel"),
        '<xacro:include filename="nothere.xacro"/>': ("nothere.xacro", "nothere"),
        '<a v="${1 +}"/>': ("${1 +}", "cannot evaluate"),
    }
    for line, (where, words) in cases.items():
        text = MAIN_TEXT.replace('<xacro:wheel name="left" mount="chasis"/>', line)
        e = expand(MAIN, text, read_file=read)
        errors = [d for d in e.errors if d.severity == 1]
        assert len(errors) == 1, (line, [d.message for d in e.errors])
        assert errors[0].path == MAIN
        assert text[errors[0].span.start : errors[0].span.end] == where, line
        assert words in errors[0].message, errors[0].message


def test_the_rest_of_the_document_is_expanded_after_an_error():
    text = MAIN_TEXT.replace('<link name="chassis"/>', '<link name="${nope}"/><link name="after"/>')
    e = expand(MAIN, text, read_file=read)
    assert not e.ok
    assert '<link name="after"/>' in e.text and 'name="left"' in e.text


def test_offsets_are_code_points_after_non_ascii_text():
    text = MAIN_TEXT.replace('<link name="chassis"/>', '<!-- é€😀 --><link name="chassis"/>')
    e = expand(MAIN, text, read_file=read)
    origin = e.origin(e.text.index('"chassis"') + 1)
    assert text[origin.span[0] : origin.span[1]] == "chassis"


def test_a_missing_include_is_one_error_not_one_per_macro_it_would_define():
    text = MAIN_TEXT.replace("wheel.xacro", "whel.xacro").replace(
        '<link name="chassis"/>', '<link name="${wheel_radius}"/><xacro:wheel name="r" mount="chassis"/>'
    )
    e = expand(MAIN, text, read_file=read)
    errors = [d for d in e.errors if d.severity == 1]
    assert len(errors) == 1
    assert "whel.xacro" in errors[0].message
    assert text[errors[0].span.start : errors[0].span.end] == "whel.xacro"


def test_an_error_in_an_attribute_leaves_the_rest_of_the_element_expanded():
    text = MAIN_TEXT.replace('<link name="chassis"/>', '<link name="${nope}"><xacro:wheel name="in" mount="x"/></link>')
    e = expand(MAIN, text, read_file=read)
    assert len([d for d in e.errors if d.severity == 1]) == 1
    assert "xacro:" not in e.text and '<link name="in"/>' in e.text


def test_a_document_cache_gives_the_same_expansion_again_and_again():
    from sdformat_lsp.formats.xacro import DocumentCache

    cache = DocumentCache(size=1)  # smaller than the two files: entries are dropped and read again
    plain = expand(MAIN, MAIN_TEXT, read_file=read)
    for _ in range(3):
        cached = expand(MAIN, MAIN_TEXT, read_file=read, documents=cache)
        assert cached.text == plain.text
        at = cached.text.index('link="chasis"') + len('link="')
        assert cached.origin(at).source.span == plain.origin(at).source.span
    broken = MAIN_TEXT.replace('<link name="chassis"/>', '<link name="${nope}"/>')
    for _ in range(2):
        e = expand(MAIN, broken, read_file=read, documents=cache)
        assert [d.message for d in e.errors] == [d.message for d in expand(MAIN, broken, read_file=read).errors]


def test_an_include_whose_name_needs_an_undefined_argument_is_an_error():
    text = MAIN_TEXT.replace('filename="wheel.xacro"', 'filename="$(arg description_dir)/wheel.xacro"')
    e = expand(MAIN, text, read_file=read)
    errors = [d for d in e.errors if d.severity == 1]
    assert len(errors) == 1 and "description_dir" in errors[0].message
