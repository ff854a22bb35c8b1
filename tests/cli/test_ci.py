"""The CI recipes: the GitHub Actions workflow of docs/ci.md and the pre-commit hook, run for real."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .util import BROKEN, ROOT, VALID

DATA = Path(__file__).parent / "data"


def fixture_repo(root: Path) -> Path:
    repo = root / "models"
    (repo / "robots" / "arm").mkdir(parents=True)
    (repo / "robots" / "arm" / "model.sdf").write_text(VALID)
    (repo / "robots" / "arm" / "model.config").write_text(
        '<model><name>arm</name><sdf version="1.8">model.sdf</sdf></model>\n'
    )
    (repo / "worlds").mkdir()
    (repo / "worlds" / "broken.sdf").write_text(BROKEN)
    (repo / "README.md").write_text("models\n")
    return repo


def workflow() -> dict:
    yaml = pytest.importorskip("yaml")
    text = (ROOT / "docs" / "ci.md").read_text()
    block = re.search(r"```yaml\n(# \.github/workflows/.*?)```", text, re.S).group(1)
    return yaml.safe_load(block)


def test_the_documented_workflow_writes_annotations_and_a_valid_sarif_log(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    wf = workflow()
    assert wf["permissions"]["security-events"] == "write"
    steps = wf["jobs"]["check"]["steps"]
    checks = [s for s in steps if "run" in s and s["run"].startswith("sdformat-lsp check")]
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@"))
    assert upload["if"] == "always()" and checks[1]["if"] == "always()"
    repo = fixture_repo(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "server"), NO_COLOR="1")
    exe = f"'{sys.executable}' -m sdformat_lsp"
    results = []
    for step in checks:
        cmd = step["run"].replace("sdformat-lsp check", f"{exe} check", 1)
        results.append(
            subprocess.run(["bash", "-c", cmd], cwd=repo, env=env, capture_output=True, text=True, timeout=120)
        )
    annotations, sarif_step = results
    assert annotations.returncode == 1  # the job fails on the error...
    assert annotations.stdout.startswith("::error file=worlds/broken.sdf,line=4,col=34,")
    assert sarif_step.returncode == 0, sarif_step.stderr  # ...and the log is still written for the upload
    log = json.loads((repo / upload["with"]["sarif_file"]).read_text())
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text())
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    [result] = log["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "worlds/broken.sdf",
        "uriBaseId": "SRCROOT",
    }
    # a configuration error is not hidden by the `|| [ $? -eq 1 ]` of the SARIF step
    (repo / "sdformat-lsp.toml").write_text("fail-on = 3\n")
    bad = subprocess.run(
        ["bash", "-c", checks[1]["run"].replace("sdformat-lsp check", f"{exe} check", 1)],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode != 0 and "sdformat-lsp.toml:1: fail-on" in bad.stderr  # the step fails


def _hooks() -> list[dict]:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())


def test_the_hook_definition():
    hook, fmt = _hooks()
    assert fmt["id"] == "sdformat-lsp-format" and fmt["entry"] == "sdformat-lsp format" and fmt["language"] == "python"
    assert re.search(fmt["files"], "w/b.world") and not re.search(fmt["files"], "model.config")
    assert hook["id"] == "sdformat-lsp-check" and hook["entry"] == "sdformat-lsp check" and hook["language"] == "python"
    files = re.compile(hook["files"])
    for name in ("a.sdf", "w/b.world", "r.urdf", "m/model.config", "model.config"):
        assert files.search(name), name
    for name in ("a.sdf.bak", "mymodel.config", "x.xml", "README.md"):
        assert not files.search(name), name


@pytest.mark.skipif(
    shutil.which("git") is None or shutil.which("pre-commit") is None, reason="git or pre-commit is not installed"
)
def test_pre_commit_try_repo_runs_the_hook(tmp_path):
    """Installs the hook's environment from this checkout (the dependencies from the base interpreter's
    site-packages where they are, else from the package index: under scripts/test.sh they live in a
    virtual environment the hook's environment cannot see) and runs it on a fixture repository;
    about 25 s, most of it pip."""
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--git-dir"], capture_output=True).returncode != 0:
        pytest.skip("not a git checkout")
    repo = fixture_repo(tmp_path)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "models"], check=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the hook runs what pre-commit installed
    env.update(
        PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
        VIRTUALENV_SYSTEM_SITE_PACKAGES="1",
        PIP_NO_BUILD_ISOLATION="0",
        NO_COLOR="1",
    )
    started = time.monotonic()
    r = subprocess.run(
        ["pre-commit", "try-repo", str(ROOT), "sdformat-lsp-check", "--all-files", "--color", "never"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    elapsed = time.monotonic() - started
    out = r.stdout + r.stderr
    if "Installing environment" in out and "sdformat-lsp check" not in out.split("Installing environment")[-1]:
        pytest.fail(f"the hook's environment could not be installed:\n{out[-3000:]}")
    assert r.returncode == 1, out
    assert "worlds/broken.sdf:4:34: error[FRAME_ATTACHED_TO_INVALID]" in out
    assert "3 files checked: 1 error" in out  # model.sdf, model.config, broken.sdf; not README.md
    print(f"pre-commit try-repo took {elapsed:.1f} s")


@pytest.mark.skipif(
    shutil.which("git") is None or shutil.which("pre-commit") is None, reason="git or pre-commit is not installed"
)
def test_pre_commit_format_hook_reindents_and_fails_once(tmp_path):
    """The format hook rewrites a badly indented file (pre-commit then fails, as for any fixer) and
    passes on the result."""
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--git-dir"], capture_output=True).returncode != 0:
        pytest.skip("not a git checkout")
    repo = tmp_path / "models"
    repo.mkdir()
    ugly = '<?xml version="1.0"?>\n<sdf version="1.9">\n<model name="m">\n      <link name="a"/>\n</model>\n</sdf>\n'
    (repo / "m.sdf").write_text(ugly)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "models"], check=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"), VIRTUALENV_SYSTEM_SITE_PACKAGES="1", NO_COLOR="1")
    run = ["pre-commit", "try-repo", str(ROOT), "sdformat-lsp-format", "--all-files", "--color", "never"]
    first = subprocess.run(run, cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert first.returncode == 1, first.stdout + first.stderr
    assert (repo / "m.sdf").read_text() == ugly.replace(
        '<model name="m">\n      <link', '  <model name="m">\n    <link'
    ).replace("</model>", "  </model>")
    second = subprocess.run(run, cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert second.returncode == 0, second.stdout + second.stderr
