"""Small mesh files of every format Gazebo draws, each a box with known corners (for the page's tests)."""

from __future__ import annotations

import base64
import json
import struct

Box = tuple[tuple[float, float, float], tuple[float, float, float]]


def _triangles(lo, hi):
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    c = [(x, y, z) for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)]
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    out = []
    for a, b, cc, d in quads:
        out.append((c[a], c[b], c[cc]))
        out.append((c[a], c[cc], c[d]))
    return out


def stl(lo, hi) -> bytes:
    lines = ["solid box"]
    for tri in _triangles(lo, hi):
        lines.append(" facet normal 0 0 0\n  outer loop")
        lines += [f"   vertex {v[0]} {v[1]} {v[2]}" for v in tri]
        lines.append("  endloop\n endfacet")
    lines.append("endsolid box")
    return ("\n".join(lines) + "\n").encode()


def obj(lo, hi) -> bytes:
    tris = _triangles(lo, hi)
    lines = []
    for tri in tris:
        lines += [f"v {v[0]} {v[1]} {v[2]}" for v in tri]
    lines += [f"f {3 * i + 1} {3 * i + 2} {3 * i + 3}" for i in range(len(tris))]
    return ("\n".join(lines) + "\n").encode()


def dae(lo, hi, unit: float = 1.0, up: str = "Z_UP", transparency: str = "") -> bytes:
    tris = _triangles(lo, hi)
    pos = " ".join(f"{c}" for tri in tris for v in tri for c in v)
    idx = " ".join(str(i) for i in range(len(tris) * 3))
    return f"""<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="u" meter="{unit}"/><up_axis>{up}</up_axis></asset>
  <library_effects><effect id="fx"><profile_COMMON><technique sid="common"><phong>
    <diffuse><color>0.2 0.6 0.9 1</color></diffuse>{transparency}
  </phong></technique></profile_COMMON></effect></library_effects>
  <library_materials><material id="mat" name="mat"><instance_effect url="#fx"/></material></library_materials>
  <library_geometries><geometry id="g"><mesh>
    <source id="p"><float_array id="pa" count="{len(tris) * 9}">{pos}</float_array>
      <technique_common><accessor source="#pa" count="{len(tris) * 3}" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles material="m" count="{len(tris)}"><input semantic="VERTEX" source="#v" offset="0"/><p>{idx}</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g">
    <bind_material><technique_common><instance_material symbol="m" target="#mat"/></technique_common></bind_material>
  </instance_geometry></node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
""".encode()


def _gltf_parts(lo, hi):
    tris = _triangles(lo, hi)
    data = b"".join(struct.pack("<3f", *v) for tri in tris for v in tri)
    doc = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "buffers": [{"byteLength": len(data)}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": len(data)}],
        "accessors": [
            {
                "bufferView": 0,
                "componentType": 5126,
                "count": len(tris) * 3,
                "type": "VEC3",
                "min": list(lo),
                "max": list(hi),
            }
        ],
    }
    return doc, data


def gltf(lo, hi) -> bytes:
    doc, data = _gltf_parts(lo, hi)
    doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    return json.dumps(doc).encode()


def glb(lo, hi) -> bytes:
    doc, data = _gltf_parts(lo, hi)
    js = json.dumps(doc).encode()
    js += b" " * (-len(js) % 4)
    data += b"\0" * (-len(data) % 4)
    body = struct.pack("<I4s", len(js), b"JSON") + js + struct.pack("<I4s", len(data), b"BIN\0") + data
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body
