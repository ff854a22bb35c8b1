"""Hostile input gives one located error, quickly and in bounded memory: expression bombs,
Python's insides, a macro calling itself, include cycles, expansions that multiply."""

from __future__ import annotations

import tracemalloc

import pytest

from sdformat_lsp.formats.xacro import expand

H = '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
T = "</robot>"


def errors_of(text: str, path: str = "/virtual/main.xacro", **kw):
    result = expand(path, text, **kw)
    return result, [d for d in result.errors if d.severity == 1]


@pytest.mark.parametrize(
    "expression",
    [
        "9**9**9",
        "'a' * 10**12",
        "[0] * 10**10",
        "10**10**10 + 1",
        "1 << 10**9",
        "().__class__.__bases__",
        "(1).__class__",
        "''.__class__.__mro__[1].__subclasses__()",
        "python.type('X', (), dict())",
        "python.vars(xacro)",
        "[x for x in python.range(10**12)]",
        "list(python.range(10**12))",
        "'%999999999d' % 1",
        "'x'.center(10**12)",
        "'ab'.replace('a', 'a' * 5000000).replace('a', 'a' * 5000000)",
        "(lambda f: f(f))(lambda f: f(f))",
        "math.factorial(10**7)",
        "getattr",
        "__import__('os')",
        "open('/etc/passwd')",
        "xacro.load_yaml.__globals__",
        "python.str.join",
    ],
)
def test_expression_bombs_and_insides_are_errors(expression):
    text = H + f'<a v="${{{expression}}}"/>' + T
    tracemalloc.start()
    try:
        result, errors = errors_of(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(errors) == 1, [d.message for d in result.errors]
    # on the attribute's value, in the document
    start = text.index("${")
    assert start <= errors[0].span.start < text.index('"/>')
    assert peak < 200_000_000


def test_what_the_allow_list_names_still_works():
    text = (
        H
        + '<a v="${python.type(1)(\'5\') + 1}" w="${(lambda x, y=2: x * y)(3)}" s="${python.sorted([3, 1], key=lambda v: -v)}"/>'
        + T
    )
    result, errors = errors_of(text)
    assert not errors, [d.message for d in errors]
    assert '<a s="[3, 1]" v="6" w="6"/>' in result.text


def test_a_macro_calling_itself_is_one_error_at_the_call():
    text = H + '<xacro:macro name="loop" params="n"><l/><xacro:loop n="${n}"/></xacro:macro><xacro:loop n="1"/>' + T
    result, errors = errors_of(text)
    assert len(errors) == 1
    assert errors[0].code == "XACRO_LIMIT"
    inner = text.index('<xacro:loop n="${n}"') + 1
    assert errors[0].span.start == inner  # the call inside the macro's body
    assert errors[0].related  # the chain of calls


def test_an_include_cycle_is_one_error_at_the_include():
    files = {
        "/v/a.xacro": H + '<xacro:include filename="b.xacro"/>' + T,
        "/v/b.xacro": H + '<xacro:include filename="a.xacro"/>' + T,
    }

    def read(path):
        try:
            return files[path]
        except KeyError:
            raise FileNotFoundError(2, "No such file or directory", path) from None

    result = expand("/v/a.xacro", files["/v/a.xacro"], read_file=read)
    errors = [d for d in result.errors if d.severity == 1]
    assert len(errors) == 1 and "cycle" in errors[0].message
    assert errors[0].path == "/v/b.xacro"
    assert set(result.files) == {"/v/a.xacro", "/v/b.xacro"}


def test_an_exploding_expansion_is_one_error():
    levels = ['<xacro:macro name="m0"><e/><e/><e/><e/><e/><e/><e/><e/><e/><e/></xacro:macro>']
    for i in range(1, 8):  # 10**8 elements if it were expanded
        levels.append(f'<xacro:macro name="m{i}">' + f"<xacro:m{i - 1}/>" * 10 + "</xacro:macro>")
    text = H + "".join(levels) + "<xacro:m7/>" + T
    result, errors = errors_of(text)
    assert len(errors) == 1 and errors[0].code == "XACRO_LIMIT"
    assert len(result.text) < 1_000_000


def test_a_recursive_property_is_one_error_at_its_definition():
    text = H + '<xacro:property name="a" value="${a + 1}"/><x v="${a}"/>' + T
    result, errors = errors_of(text)
    assert len(errors) == 1
    assert text[errors[0].span.start : errors[0].span.end] == "${a + 1}"


def test_callables_that_fail_give_located_errors():
    def bad_read(path):
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    def bad_find(name):
        raise PermissionError(13, "Permission denied", "/opt/ros")

    text = H + '<xacro:include filename="lib.xacro"/><a v="$(find pkg)"/>' + T
    result, errors = errors_of(text, read_file=bad_read, find_package=bad_find)
    assert len(errors) == 2 and all(e.path == "/virtual/main.xacro" for e in errors)  # two causes
    result, errors = errors_of(H + '<a v="$(find pkg)"/>' + T, find_package=bad_find)
    assert len(errors) == 1 and "pkg" in errors[0].message
