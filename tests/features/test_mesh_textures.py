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


def _finishes(call, *args):
    """Run ``call`` in a thread; its result, or a failure if it has not returned after a minute (a hang guard)."""
    import threading

    got: list = []
    t = threading.Thread(target=lambda: got.append(call(*args)), daemon=True)
    t.start()
    t.join(60)
    assert got, f"{call.__name__} did not return"
    return got[0]


def test_a_mesh_path_that_is_not_a_regular_file_names_no_image_and_is_never_read(tmp_path: Path):
    fifo = tmp_path / "pipe.dae"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    assert _finishes(collada_textures, str(fifo)) == ()
    assert _finishes(collada_textures, str(tmp_path)) == ()  # a directory


def test_unclosed_image_tags_are_read_in_one_pass(tmp_path: Path):
    # 200,000 <image> tags left open, then one whole image: a scan from each <image> to the next </image> would
    # read the file once per tag (about 400 GB here); the reader's work is proportional to the file
    (tmp_path / "t.png").write_bytes(b"1")
    dae = tmp_path / "m.dae"
    dae.write_bytes(
        b"<COLLADA>" + b"<image id='x'>" * 200_000 + b"<image><init_from>t.png</init_from></image>"
        b"<image><init_from>t.png" + b"<init_from>" * 100_000 + b"</COLLADA>"
    )
    assert dict(_finishes(collada_textures, str(dae))) == {"t.png": str(tmp_path / "t.png")}
