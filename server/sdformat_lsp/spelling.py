"""Whether one name is another mistyped: the test behind "did you mean" warnings and misspelt end tags.

One edit or one transposition (``statik``/``static``, ``lnik``/``link``, ``modelx``/``model``) is
what typing gets wrong; a farther name is more likely another word (a simulator's own element),
and is left quiet or suggested without a warning.
"""

from __future__ import annotations


def one_edit(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one character inserted, deleted or replaced, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long[i]:
        i += 1
    return short[i:] == long[i + 1 :]


__all__ = ["one_edit"]
