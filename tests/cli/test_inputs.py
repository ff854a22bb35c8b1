"""`check` inputs: directories, excludes, .gitignore, standard input, --jobs, bad paths."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from .util import BROKEN, VALID, check, run

URDF = '<robot name="r"><link name="l"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>\n'


def tree(root, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def paths_of(out: str) -> list[str]:
    return [f["path"] for f in json.loads(out)["files"]]


def test_directory_is_searched_recursively_for_sdformat_urdf_and_model_config(tmp_path, capsys):
    tree(
        tmp_path,
        {
            "a.sdf": VALID,
            "w/b.world": VALID,
            "w/deep/c.urdf": URDF,
            "m/model.config": '<model><name>m</name><sdf version="1.8">model.sdf</sdf></model>',
            "m/model.sdf": VALID,
            "notes.txt": "x",
            "x.xml": "<x/>",
        },
    )
    code, out, _ = check(capsys, "--format", "json", "-j", "1", ".", cwd=tmp_path)
    assert code == 0
    assert paths_of(out) == ["a.sdf", "m/model.config", "m/model.sdf", "w/b.world", "w/deep/c.urdf"]


def test_hidden_and_excluded_paths_are_skipped(tmp_path, capsys):
    tree(
        tmp_path,
        {
            "a.sdf": VALID,
            ".hidden/b.sdf": BROKEN,
            ".c.sdf": BROKEN,
            "build/d.sdf": BROKEN,
            "src/build/e.sdf": BROKEN,
            "src/f.gen.sdf": BROKEN,
            "src/g.sdf": VALID,
        },
    )
    code, out, _ = check(
        capsys, "--format", "json", "-j", "1", "--exclude", "build", "--exclude", "*.gen.sdf", ".", cwd=tmp_path
    )
    assert paths_of(out) == ["a.sdf", "src/g.sdf"] and code == 0
    # a pattern with a slash is anchored at the working directory
    code, out, _ = check(
        capsys, "--format", "json", "-j", "1", "--exclude", "src/build/**", "--exclude", ".hidden", "src", cwd=tmp_path
    )
    assert paths_of(out) == ["src/f.gen.sdf", "src/g.sdf"]
    # an excluded file named explicitly is skipped too (pre-commit passes every staged file)
    code, out, _ = check(capsys, "--format", "json", "--exclude", "build", "build/d.sdf", "a.sdf", cwd=tmp_path)
    assert paths_of(out) == ["a.sdf"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_gitignore_is_honoured_where_git_is_present(tmp_path, capsys):
    tree(
        tmp_path,
        {
            "a.sdf": VALID,
            "out/b.sdf": BROKEN,
            "gen.sdf": BROKEN,
            "tracked.sdf": VALID,
            ".gitignore": "out/\ngen.sdf\ntracked.sdf\n",
        },
    )
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(
        ["git", "-C", str(tmp_path), "add", "-f", "tracked.sdf"], check=True
    )  # tracked files are never ignored
    code, out, _ = check(capsys, "--format", "json", ".", cwd=tmp_path)
    assert paths_of(out) == ["a.sdf", "tracked.sdf"] and code == 0
    code, out, _ = check(capsys, "--format", "json", "--no-gitignore", ".", cwd=tmp_path)
    assert paths_of(out) == ["a.sdf", "gen.sdf", "out/b.sdf", "tracked.sdf"] and code == 1
    # outside a git work tree nothing is ignored
    (tmp_path / ".git").rename(tmp_path / "not-git")
    code, out, _ = check(capsys, "--format", "json", ".", cwd=tmp_path)
    assert len(paths_of(out)) == 4


def test_stdin_with_a_name_resolves_includes_and_configuration_from_it(tmp_path):
    tree(tmp_path, {"proj/sdformat-lsp.toml": 'fail-on = "warning"\n', "proj/parts/arm.sdf": VALID})
    doc = '<sdf version="1.8"><world name="w"><include><uri>parts/arm.sdf</uri></include></world></sdf>'
    r = run("-", "--stdin-filename", "proj/world.sdf", "--format", "json", cwd=tmp_path, stdin=doc)
    assert r.returncode == 0, r.stdout + r.stderr
    entry = json.loads(r.stdout)["files"][0]
    assert entry["path"] == "proj/world.sdf" and entry["diagnostics"] == []
    # the same text under another name: the include is not found; the config's fail-on applies
    r = run(
        "-",
        "--stdin-filename",
        "proj/sub/world.sdf",
        cwd=tmp_path,
        stdin=doc + "<!-- sdformat-lsp: disable XML_ERROR -->",
    )
    assert r.returncode == 1
    assert "proj/sub/world.sdf:1:" in r.stdout and "URI_LOOKUP" in r.stdout
    # without a name
    r = run("-", cwd=tmp_path, stdin=VALID)
    assert r.returncode == 0 and "1 file checked" in r.stderr


def test_jobs_keep_sorted_output_whatever_the_scheduling(tmp_path):
    names = [f"d{i % 7}/f{i:03d}.sdf" for i in range(60)]
    tree(tmp_path, {n: (BROKEN if i % 3 == 0 else VALID) for i, n in enumerate(names)})
    serial = run("--format", "json", "--jobs", "1", ".", cwd=tmp_path)
    parallel = run("--format", "json", "--jobs", "4", ".", cwd=tmp_path)
    assert serial.returncode == parallel.returncode == 1
    assert serial.stdout == parallel.stdout
    assert paths_of(parallel.stdout) == sorted(names)
    text = run("--jobs", "3", ".", cwd=tmp_path, env={"NO_COLOR": "1"})
    heads = [line.split(":")[0] for line in text.stdout.splitlines() if ": error[" in line]
    assert heads == sorted(heads) and len(heads) == 20


def test_bad_usage_exits_two(tmp_path, capsys):
    assert check(capsys, "--jobs", "0", ".", cwd=tmp_path)[0] == 2
    assert check(capsys, "-", "-", cwd=tmp_path)[0] == 2
    assert check(capsys, "--stdin-filename", "x.sdf", "a.sdf", cwd=tmp_path)[0] == 2
    assert check(capsys, "--format", "xml", "a.sdf", cwd=tmp_path)[0] == 2


def _bad_inputs(tmp_path):
    tree(tmp_path, {"good.sdf": VALID, "bad.sdf": BROKEN, "sub/x.sdf": VALID})
    (tmp_path / "binary.sdf").write_bytes(b"\x7fELF\x00\x00\x01\x02" * 100)
    os.mkfifo(tmp_path / "pipe.sdf")
    os.symlink(tmp_path, tmp_path / "sub" / "loop")  # a directory loop
    os.symlink(tmp_path / "missing.sdf", tmp_path / "dangling.sdf")
    os.symlink("/dev/null", tmp_path / "device.sdf")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_bad_inputs_are_one_line_each_and_the_rest_is_checked(tmp_path):
    _bad_inputs(tmp_path)
    r = run("--jobs", "2", ".", "nonexistent.sdf", "/dev/zero", cwd=tmp_path, env={"NO_COLOR": "1"})
    assert r.returncode == 1 and "Traceback" not in r.stderr
    heads = [line for line in r.stdout.splitlines() if not line.startswith(" ")]
    by_path = {line.split(":")[0]: line for line in heads}
    assert "binary file" in by_path["binary.sdf"]
    assert "FIFO" in by_path["pipe.sdf"]
    assert "character device" in by_path["device.sdf"] and "character device" in by_path["/dev/zero"]
    assert "broken symbolic link" in by_path["dangling.sdf"]
    assert "no such file" in by_path["nonexistent.sdf"]
    assert (
        "symlink loop" in by_path[os.path.join("sub", "loop")]
        and "warning[FILE_READ]" in by_path[os.path.join("sub", "loop")]
    )
    for bad in ("binary.sdf", "pipe.sdf", "device.sdf", "dangling.sdf", "nonexistent.sdf", "/dev/zero"):
        assert sum(1 for h in heads if h.startswith(bad + ":")) == 1, bad
    assert "bad.sdf:4:" in r.stdout  # the others are still checked
    assert not any(h.startswith(("good.sdf", "sub/x.sdf")) for h in heads)
    assert "10 files checked" in r.stderr


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_is_an_error_on_that_file(tmp_path, capsys):
    tree(tmp_path, {"secret.sdf": VALID, "ok.sdf": VALID})
    (tmp_path / "secret.sdf").chmod(0)
    code, out, _ = check(capsys, "--color", "never", ".", cwd=tmp_path)
    assert code == 1 and "secret.sdf:1:1: error[FILE_READ]" in out and "permission denied" in out.lower()


def test_unreadable_file_by_the_operating_system(tmp_path, capsys, monkeypatch):
    """The same as above for any user: opening fails with EACCES."""
    tree(tmp_path, {"secret.sdf": VALID, "ok.sdf": VALID})
    real_open = os.open

    def deny(path, *a, **kw):
        if str(path).endswith("secret.sdf"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *a, **kw)

    monkeypatch.setattr(os, "open", deny)
    code, out, _ = check(capsys, "--color", "never", "-j", "1", ".", cwd=tmp_path)
    assert code == 1
    lines = [line for line in out.splitlines() if not line.startswith(" ")]
    assert lines == [
        "secret.sdf:1:1: error[FILE_READ] cannot read " + str(tmp_path / "secret.sdf") + ": Permission denied"
    ]


def test_characters_no_output_encoding_can_hold_are_printed_escaped(tmp_path):
    # a reference to a lone surrogate decodes to one (libxml2 reports it); the diagnostics that
    # quote the name, and the other formats, are printed, not a UnicodeEncodeError traceback
    doc = tmp_path / "s.sdf"
    doc.write_text('<sdf version="1.8"><model name="m"><link name="a&#xD800;"/><link name="a&#xD800;"/></model></sdf>')
    for fmt in ("text", "json"):
        r = run("--format", fmt, str(doc))
        assert r.returncode == 1, r.stderr
        assert "Traceback" not in r.stderr and "UnicodeEncodeError" not in r.stderr
        assert "a\\ud800" in r.stdout  # escaped by JSON, or by the stream
