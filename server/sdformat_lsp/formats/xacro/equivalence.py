"""Whether two expanded documents are the same document, as the corpus comparison and the
tests judge ours against ROS's xacro: comments, white space between elements and the order
of attributes aside (text in elements compared without its surrounding white space)."""

from __future__ import annotations

from xml.parsers import expat


def canonical(text: str) -> list | None:
    """The document as nested lists [tag, sorted attributes, text pieces and children]; None
    when it is not well-formed."""
    root: list = ["#document", [], []]
    stack = [root]
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.ordered_attributes = True

    def start(name: str, attrs: list[str]) -> None:
        node = [name, sorted(zip(attrs[::2], attrs[1::2])), []]
        stack[-1][2].append(node)
        stack.append(node)

    def end(name: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        data = data.strip()
        if data:
            kids = stack[-1][2]
            if kids and isinstance(kids[-1], str):
                kids[-1] += data
            else:
                kids.append(data)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(text.encode("utf-8", "surrogatepass"), True)
    except expat.ExpatError:
        return None
    return root


def first_difference(a: str, b: str) -> str | None:
    """None when the documents are the same; else where they first differ."""
    ca, cb = canonical(a), canonical(b)
    if ca is None or cb is None:
        return "not well-formed"
    stack = [(ca, cb, "")]
    while stack:
        x, y, path = stack.pop()
        if isinstance(x, str) or isinstance(y, str):
            if x != y:
                return f"{path}: text {str(x)[:60]!r} != {str(y)[:60]!r}"
            continue
        here = f"{path}/{x[0]}"
        if x[0] != y[0]:
            return f"{path}: <{x[0]}> != <{y[0]}>"
        if x[1] != y[1]:
            return f"{here}: attributes {x[1]} != {y[1]}"
        if len(x[2]) != len(y[2]):
            return f"{here}: {len(x[2])} children != {len(y[2])}"
        stack.extend((p, q, here) for p, q in zip(reversed(x[2]), reversed(y[2])))
    return None
