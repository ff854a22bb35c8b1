"""Value text against spec types, as libsdformat reads it."""

from __future__ import annotations

import pytest

from sdformat_lsp.spec import check_value

OK = [
    ("bool", "true"),
    ("bool", "FALSE"),
    ("bool", "1"),
    ("bool", " 0 "),
    ("bool", "True"),
    ("int", "42"),
    ("int", "-7"),
    ("int", "+3"),
    ("int", "0x1F"),
    ("int", "true"),
    ("unsigned int", "10"),
    ("uint64_t", "18446744073709551615"),
    ("double", "1.5"),
    ("double", "-1e-3"),
    ("double", ".5"),
    ("double", "inf"),
    ("double", "-inf"),
    ("double", "false"),
    ("float", "3.25"),
    ("string", ""),
    ("string", "anything at all"),
    ("char", "x"),
    ("vector3", "0 0 1"),
    ("vector3", " 1.0\t2.0\n3.0 "),
    ("vector3", "1e3 -2 .5"),
    ("vector2d", "0.5 0.5"),
    ("vector2i", "640 480"),
    ("quaternion", "0 0 1.57"),
    ("color", "1 0 0"),
    ("color", "0.1 0.2 0.3 1"),
    ("color", ".1 .1 .1 1"),
    ("time", "0 0"),
    ("time", "10 500"),
    ("pose", "0 0 0 0 0 0"),
    ("pose", "1 2 3 0.1 0.2 0.3"),
    ("double", ""),
    ("vector3", "   "),  # empty: libsdformat uses the default
    ("no such type", "whatever"),
]


@pytest.mark.parametrize("type_name,text", OK)
def test_accepted(type_name: str, text: str) -> None:
    assert check_value(type_name, text) is None


BAD = [
    ("bool", "yes", "true or false"),
    ("bool", "2", "true or false"),
    ("int", "abc", "whole number"),
    ("int", "99999999999", "out of range"),
    ("unsigned int", "x", "whole number"),
    ("double", "abc", "expected a number"),
    ("double", "1e999", "out of range"),
    ("float", "1e39", "out of range"),
    ("vector3", "1 2", "expected 3 numbers (x y z), got 2"),
    ("vector3", "", None),
    ("vector3", "1 two 3", "'two' is not a number"),
    ("vector3", "1,2,3", "spaces, not commas"),
    ("vector3", "1 2 nan", "not a number"),
    ("vector3", "1 2 1e999", "out of range"),
    ("color", "1e-50 0 0", "too small"),
    ("vector2d", "1", "expected 2 numbers (x y), got 1"),
    ("vector2i", "1.5 2", "whole number"),
    ("color", "1 0", "got 2"),
    ("color", "1 0 0 1 1", "got 5"),
    ("color", "255 0 0", "between 0 and 1"),
    ("color", "red", "not a number"),
    ("time", "5", "expected 2 whole numbers"),
    ("time", "1.5 0", "whole number"),
    ("pose", "0 0 0", "expected 6 numbers"),
    ("pose", "0 0 0 0 0 0 1", "got 7"),
    ("pose", "0 0 0 0 0 inf", "finite"),
    ("pose", "0 0 zero 0 0 0", "'zero' is not a number"),
]


@pytest.mark.parametrize("type_name,text,fragment", BAD)
def test_rejected(type_name: str, text: str, fragment: str | None) -> None:
    message = check_value(type_name, text)
    if fragment is None:
        assert message is None
    else:
        assert message is not None and fragment in message


LAX = [
    ("int", "1.5", "'.5' is ignored"),
    ("int", "12abc", "ignored"),
    ("unsigned int", "-1", "non-negative"),
    ("unsigned int", "5000000000", "32 bits"),
    ("double", "1.0kg", "'kg' is ignored"),
    ("vector3", "1 2 3 4", "got 4"),
    ("char", "ab", "single character"),
    ("color", "0.5x 0 0", "read only as 0.5"),
]


@pytest.mark.parametrize("type_name,text,fragment", LAX)
def test_lax_values_pass_but_strict_mode_reports_them(type_name: str, text: str, fragment: str) -> None:
    assert check_value(type_name, text) is None  # libsdformat accepts these
    message = check_value(type_name, text, strict=True)
    assert message is not None and fragment in message


def test_every_spec_default_and_bound_is_valid() -> None:
    from sdformat_lsp.spec import known_versions, schema_for

    seen = 0
    for version in known_versions():
        s = schema_for(version)
        for def_id in s.definitions():
            stack = [s.definition(def_id)]
            while stack:
                spec = stack.pop()
                items = [(spec.type, spec.default, spec.min, spec.max)]
                items += [(a.type, a.default, a.min, a.max) for a in spec.attributes.values()]
                for type_name, *values in items:
                    for value in values:
                        if type_name and value is not None:
                            seen += 1
                            assert check_value(type_name, value, strict=True) is None, (version, spec.name, value)
                stack.extend(spec.child(n) for n, c in spec.children.items() if c.ref is None)
    assert seen > 1000
