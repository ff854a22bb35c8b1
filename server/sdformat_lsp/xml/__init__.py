"""The XML layer: text to a tolerant tree with exact spans."""

from .parser import XML_ERROR, parse, parse_built
from .source import decode_source
from .tree import XmlAttribute, XmlDocument, XmlElement

__all__ = ["XML_ERROR", "XmlAttribute", "XmlDocument", "XmlElement", "decode_source", "parse", "parse_built"]
