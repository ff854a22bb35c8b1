#!/usr/bin/env python3
"""Time of the full analysis of a world made of includes (issue: include core).

    python benchmarks/bench_includes.py [--includes 500] [--models 50] [--repeat 5]

Generates, in a temporary directory, ``--models`` distinct model directories
(model.config + model.sdf; each model has a few links, joints and frames and
itself includes a small shared part with ``model://``) and a world with
``--includes`` ``<include>``s of them, each renamed and posed, some relative
to a world frame, some with a placement frame. Then it analyses the world:

* cold: a fresh process-wide state and an empty include cache (every model
  file read and analysed once);
* warm: the same cache again (nothing changed on disk: every include is a
  cache hit after one stat per dependency).

Targets on a 2-core machine: cold < 3 s, warm < 1 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))


def model_sdf(i: int) -> str:
    links = "\n".join(
        f'    <link name="link{j}">\n      <pose>{0.1 * j} 0 {0.05 * i} 0 0 {0.01 * j}</pose>\n'
        f"      <inertial><mass>1</mass></inertial>\n"
        f'      <visual name="v"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></visual>\n'
        f'      <collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision>\n    </link>'
        for j in range(6)
    )
    joints = "\n".join(
        f'    <joint name="joint{j}" type="revolute">\n      <parent>link{j - 1}</parent>\n      <child>link{j}</child>\n'
        f"      <axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis>\n    </joint>"
        for j in range(1, 6)
    )
    return f"""<?xml version="1.0"?>
<sdf version="1.9">
  <model name="model{i}">
    <pose>0 0 0.5 0 0 0</pose>
{links}
{joints}
    <frame name="mount" attached_to="link5">
      <pose relative_to="link5">0 0 0.2 0 0 0</pose>
    </frame>
    <frame name="base_frame"/>
    <include>
      <uri>model://part</uri>
      <name>part</name>
      <pose relative_to="mount"/>
    </include>
    <joint name="part_joint" type="fixed">
      <parent>link5</parent>
      <child>part::body</child>
    </joint>
  </model>
</sdf>
"""


PART = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="part">
    <link name="body"><pose>0 0 0.01 0 0 0</pose></link>
    <frame name="tip"><pose>0 0 0.1 0 0 0</pose></frame>
  </model>
</sdf>
"""


def config(name: str, file: str) -> str:
    return f'<?xml version="1.0"?>\n<model>\n  <name>{name}</name>\n  <version>1.0</version>\n  <sdf version="1.9">{file}</sdf>\n</model>\n'


def make_tree(root: Path, n_includes: int, n_models: int) -> Path:
    models = root / "models"
    (models / "part").mkdir(parents=True)
    (models / "part" / "model.config").write_text(config("part", "model.sdf"))
    (models / "part" / "model.sdf").write_text(PART)
    for i in range(n_models):
        d = models / f"model{i}"
        d.mkdir()
        (d / "model.config").write_text(config(f"model{i}", "model.sdf"))
        (d / "model.sdf").write_text(model_sdf(i))
    body = ['    <frame name="row"><pose>0 10 0 0 0 0</pose></frame>']
    for k in range(n_includes):
        m = k % n_models
        if k % 3 == 0:
            pose = f'<pose relative_to="row">{k % 25} {k // 25} 0 0 0 0.1</pose>'
        elif k % 3 == 1:
            pose = f"<placement_frame>mount</placement_frame><pose>{k % 25} {k // 25} 1 0 0 0</pose>"
        else:
            pose = f"<pose>{k % 25} {k // 25} 0 0 0 0</pose>"
        body.append(
            f"    <include>\n      <uri>model://model{m}</uri>\n      <name>robot{k}</name>\n      {pose}\n    </include>"
        )
    world = root / "world.sdf"
    world.write_text(
        '<?xml version="1.0"?>\n<sdf version="1.9">\n  <world name="w">\n' + "\n".join(body) + "\n  </world>\n</sdf>\n"
    )
    return world


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--includes", type=int, default=500)
    ap.add_argument("--models", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    from sdformat_lsp.cli import load_file
    from sdformat_lsp.diagnostics import Severity
    from sdformat_lsp.semantics import Options
    from sdformat_lsp.semantics.includes.resolver import IncludeCache

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        world = make_tree(root, args.includes, args.models)
        paths = (str(root / "models"),)
        colds, warms = [], []
        frames = errors = 0
        for _ in range(args.repeat):
            cache = IncludeCache()
            options = Options(resource_paths=paths, include_cache=cache)
            t0 = time.perf_counter()
            a = load_file(str(world), options)
            colds.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            a = load_file(str(world), options)
            warms.append(time.perf_counter() - t0)
            frames = len(a.frames())
            errors = sum(1 for d in a.diagnostics if d.severity == Severity.ERROR)
        print(
            f"world: {args.includes} includes of {args.models} distinct models (each including one more), {frames} frames, {errors} errors"
        )
        print(f"first cold run in this process (imports, schema tables loaded): {1000 * colds[0]:8.1f} ms")
        print(
            f"cold (empty cache): median {1000 * statistics.median(colds):8.1f} ms   min {1000 * min(colds):8.1f} ms   target < 3000 ms"
        )
        print(
            f"warm (cache kept):  median {1000 * statistics.median(warms):8.1f} ms   min {1000 * min(warms):8.1f} ms   target < 1000 ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
