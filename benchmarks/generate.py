"""Generated SDFormat documents for the benchmarks (deterministic)."""

from __future__ import annotations

import random


def _model_body(
    rng: random.Random, prefix: str, links: int, depth: int, lines: list[str], indent: str, collisions: bool = False
) -> None:
    for i in range(links):
        lines.append(f'{indent}<link name="{prefix}link{i}">')
        lines.append(
            f"{indent}  <pose>{rng.uniform(-1, 1):.4f} {rng.uniform(-1, 1):.4f} {rng.uniform(0, 1):.4f} 0 0 {rng.uniform(-3, 3):.4f}</pose>"
        )
        lines.append(f"{indent}  <inertial><mass>1</mass></inertial>")
        if collisions:
            lines.append(f'{indent}  <collision name="c">')
            lines.append(f"{indent}    <geometry><box><size>0.1 0.1 0.1</size></box></geometry>")
            lines.append(f"{indent}    <surface><friction><ode><mu>0.8</mu></ode></friction></surface>")
            lines.append(f"{indent}  </collision>")
        lines.append(f'{indent}  <visual name="v"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></visual>')
        lines.append(f"{indent}</link>")
    for i in range(1, links):
        lines.append(f'{indent}<joint name="{prefix}joint{i}" type="revolute">')
        lines.append(f'{indent}  <pose relative_to="{prefix}link{i - 1}">0 0 0.1 0 0 0</pose>')
        lines.append(f"{indent}  <parent>{prefix}link{i - 1}</parent>")
        lines.append(f"{indent}  <child>{prefix}link{i}</child>")
        lines.append(
            f'{indent}  <axis><xyz expressed_in="__model__">0 0 1</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis>'
        )
        lines.append(f"{indent}</joint>")
    for i in range(links):
        lines.append(f'{indent}<frame name="{prefix}frame{i}" attached_to="{prefix}link{i}">')
        lines.append(f'{indent}  <pose relative_to="{prefix}link{i}" degrees="true">0 0 0.05 0 90 0</pose>')
        lines.append(f"{indent}</frame>")


def small_model() -> str:
    """About 100 lines: one arm."""
    rng = random.Random(1)
    lines = ['<?xml version="1.0"?>', '<sdf version="1.9">', '  <model name="arm">']
    _model_body(rng, "", 5, 0, lines, "    ")
    lines += ["  </model>", "</sdf>"]
    return "\n".join(lines) + "\n"


def large_model(target_lines: int = 5000) -> str:
    """A model with nested models and frames, about ``target_lines`` lines."""
    rng = random.Random(2)
    lines = ['<?xml version="1.0"?>', '<sdf version="1.9">', '  <model name="robot">']
    _model_body(rng, "", 10, 0, lines, "    ")
    i = 0
    while len(lines) < target_lines - 20:
        lines.append(f'    <model name="sub{i}">')
        lines.append(f'      <pose relative_to="frame{i % 10}">0 0 0.2 0 0 0</pose>')
        _model_body(rng, "", 8, 1, lines, "      ")
        lines.append('      <model name="inner"><link name="l"/><frame name="f" attached_to="l"/></model>')
        lines.append("    </model>")
        i += 1
    lines.append('    <frame name="tool" attached_to="sub0::inner::f"/>')
    lines += ["  </model>", "</sdf>"]
    return "\n".join(lines) + "\n"


def large_world(models: int = 3000) -> str:
    """A world of ``models`` small models, about 100,000 lines for 3,000."""
    rng = random.Random(3)
    lines = ['<?xml version="1.0"?>', '<sdf version="1.10">', '  <world name="city">']
    for m in range(models):
        lines.append(f'    <model name="m{m}">')
        lines.append(f"      <pose>{m * 2.0:.1f} {rng.uniform(-50, 50):.3f} 0 0 0 {rng.uniform(-3, 3):.4f}</pose>")
        _model_body(rng, "", 2, 0, lines, "      ", collisions=True)
        lines.append('      <frame name="marker" attached_to="link1"><pose>0 0 1 0 0 0</pose></frame>')
        lines.append("    </model>")
        if m % 10 == 0:
            lines.append(f'    <frame name="wf{m}" attached_to="m{m}::marker"/>')
    lines += ["  </world>", "</sdf>"]
    return "\n".join(lines) + "\n"
