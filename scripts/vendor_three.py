"""Copy three.js and the addons the viewer page uses into the Python package (no network at run time).

    python scripts/vendor_three.py [--version X.Y.Z]

Fetches the ``three`` package from the npm registry with ``npm pack`` (the version the VS Code
extension pins in vscode-extension/package.json unless given), and copies the ES modules the page
imports (``three.module.js`` and ``three.core.js``, the orbit controls, the STL, OBJ (and its MTL), Collada and
glTF loaders and what they import) with three.js's MIT license into
``server/sdformat_lsp/viewer/vendor/three/``. The page maps ``three`` and ``three/addons/`` there
with an import map, as the bundled VS Code webview resolves them from node_modules: one source.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEST = ROOT / "server" / "sdformat_lsp" / "viewer" / "vendor" / "three"
FILES = (
    "LICENSE",
    "build/three.module.js",
    "build/three.core.js",
    "examples/jsm/controls/OrbitControls.js",
    "examples/jsm/loaders/STLLoader.js",
    "examples/jsm/loaders/OBJLoader.js",
    "examples/jsm/loaders/MTLLoader.js",
    "examples/jsm/loaders/ColladaLoader.js",
    "examples/jsm/loaders/collada/ColladaParser.js",
    "examples/jsm/loaders/collada/ColladaComposer.js",
    "examples/jsm/loaders/TGALoader.js",
    "examples/jsm/loaders/GLTFLoader.js",
    "examples/jsm/utils/BufferGeometryUtils.js",
    "examples/jsm/utils/SkeletonUtils.js",
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    pinned = json.loads((ROOT / "vscode-extension" / "package.json").read_text())["devDependencies"]["three"]
    ap.add_argument("--version", default=pinned.lstrip("^~"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = (
            subprocess.run(
                ["npm", "pack", f"three@{args.version}", "--silent"],
                cwd=tmp,
                capture_output=True,
                text=True,
                check=True,
            )
            .stdout.strip()
            .splitlines()[-1]
        )
        with tarfile.open(Path(tmp) / out) as tar:
            tar.extractall(tmp, filter="data") if sys.version_info >= (3, 12) else tar.extractall(tmp)  # noqa: S202
        src = Path(tmp) / "package"
        if DEST.exists():
            shutil.rmtree(DEST)
        for rel in FILES:
            target = DEST / (rel.replace("build/", "").replace("examples/jsm/", "addons/"))
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src / rel, target)
        (DEST / "VERSION").write_text(
            f"three {args.version} from the npm registry (npm pack), by scripts/vendor_three.py\n"
        )
    size = sum(p.stat().st_size for p in DEST.rglob("*") if p.is_file())
    print(f"vendored three {args.version}: {len(FILES)} files, {size / 1e6:.2f} MB in {DEST.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
