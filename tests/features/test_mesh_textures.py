"""The images a COLLADA mesh names, found where gz-common finds them (semantics/includes/mesh_textures.py): the
3D view asks for these files, in VS Code too, where nothing else looks in ../materials/textures."""

from __future__ import annotations

import os
from pathlib import Path

from sdformat_lsp.semantics.includes.mesh_textures import collada_textures


def test_each_image_is_found_beside_the_mesh_then_in_materials_textures(tmp_path: Path):
    meshes = tmp_path / "model" / "meshes"
    textures = tmp_path / "model" / "materials" / "textures"
    meshes.mkdir(parents=True)
    textures.mkdir(parents=True)
    (meshes / "beside.png").write_bytes(b"1")
    (textures / "fallback.png").write_bytes(b"2")
    (textures / "a&b.png").write_bytes(b"3")
    (tmp_path / "photos").mkdir()
    (tmp_path / "photos" / "up.jpg").write_bytes(b"4")
    dae = meshes / "m.dae"
    dae.write_text(
        "<COLLADA><library_images>"
        "<image id='a'><init_from> beside.png </init_from></image>"
        "<image id='b' name='x'><init_from>fallback.png</init_from></image>"
        "<image id='c'><init_from><ref>a&amp;b.png</ref></init_from></image>"  # COLLADA 1.5, an entity
        "<image id='d'><init_from>../../../photos/up.jpg</init_from></image>"  # found below materials/textures
        "<image id='e'><init_from>gone.png</init_from></image>"
        "<image id='f'><init_from>/abs/x.png</init_from></image><image id='g'/>"
        "<image_other><init_from>beside.png</init_from></image_other>"
        "</library_images></COLLADA>"
    )
    got = dict(collada_textures(str(dae)))
    assert got == {
        "beside.png": str(meshes / "beside.png"),
        "fallback.png": str(textures / "fallback.png"),
        "a&b.png": str(textures / "a&b.png"),
        "../../../photos/up.jpg": str(tmp_path / "photos" / "up.jpg"),
    }
    # read again only when the file changes
    dae.write_text("<COLLADA><library_images><image id='a'><init_from>beside.png</init_from></image></COLLADA>")
    os.utime(dae, ns=(1, 1))
    assert collada_textures(str(dae)) == (("beside.png", str(meshes / "beside.png")),)
    assert collada_textures(str(tmp_path / "absent.dae")) == ()
