"""A generated xacro robot for the benchmarks: five files, about 2,000 lines, in a ROS package.

``robot.urdf.xacro`` includes four libraries (``$(find)`` of its own package):
properties, a wheel macro, an arm macro with nested calls, and sensors with
``<gazebo>`` blocks; the top file calls them with arguments, blocks and
conditions, as real descriptions (husky, UR arms) do.
"""

from __future__ import annotations

from pathlib import Path

VARIANTS = 30  # macros of each kind in the libraries
PROPERTIES = 100
INERTIAL = """    <inertial>
      <origin xyz="0 0 0" rpy="0 0 0"/>
      <mass value="${{{mass}}}"/>
      <inertia ixx="${{{mass} * 0.01}}" ixy="0" ixz="0" iyy="${{{mass} * 0.01}}" iyz="0" izz="${{{mass} * 0.02}}"/>
    </inertial>"""


def _properties(n: int) -> str:
    rows = [f'  <xacro:property name="p{i}" value="{0.01 * (i + 1):.3f}"/>' for i in range(n)]
    rows += [f'  <xacro:property name="mass{i}" value="${{p{i} * 10 + 1}}"/>' for i in range(n)]
    return (
        '<?xml version="1.0"?>\n<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        + "\n".join(rows)
        + "\n</robot>\n"
    )


def _wheel() -> str:
    body = []
    for k in range(VARIANTS):
        body.append(f"""  <xacro:macro name="wheel{k}" params="prefix parent reflect:=1 *origin">
    <link name="${{prefix}}_wheel{k}">
{INERTIAL.format(mass="mass" + str(k))}
      <visual>
        <origin xyz="0 0 0" rpy="${{pi/2}} 0 0"/>
        <geometry><cylinder radius="${{p{k} + 0.1}}" length="0.05"/></geometry>
      </visual>
      <collision>
        <origin xyz="0 0 0" rpy="${{pi/2}} 0 0"/>
        <geometry><cylinder radius="${{p{k} + 0.1}}" length="0.05"/></geometry>
      </collision>
    </link>
    <joint name="${{prefix}}_wheel{k}_joint" type="continuous">
      <xacro:insert_block name="origin"/>
      <parent link="${{parent}}"/>
      <child link="${{prefix}}_wheel{k}"/>
      <axis xyz="0 ${{reflect}} 0"/>
    </joint>
  </xacro:macro>""")
    return (
        '<?xml version="1.0"?>\n<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        + "\n".join(body)
        + "\n</robot>\n"
    )


def _arm() -> str:
    body = [
        """  <xacro:macro name="segment" params="name parent length mass">
    <link name="${name}">
      <inertial>
        <origin xyz="0 0 ${length/2}" rpy="0 0 0"/>
        <mass value="${mass}"/>
        <inertia ixx="${mass*length*length/12}" ixy="0" ixz="0" iyy="${mass*length*length/12}" iyz="0" izz="0.001"/>
      </inertial>
      <visual><origin xyz="0 0 ${length/2}"/><geometry><box size="0.05 0.05 ${length}"/></geometry></visual>
      <collision><origin xyz="0 0 ${length/2}"/><geometry><box size="0.05 0.05 ${length}"/></geometry></collision>
    </link>
    <joint name="${name}_joint" type="revolute">
      <origin xyz="0 0 ${length}" rpy="0 0 0"/>
      <parent link="${parent}"/>
      <child link="${name}"/>
      <axis xyz="0 1 0"/>
      <limit lower="${-pi/2}" upper="${pi/2}" effort="10" velocity="1"/>
    </joint>
  </xacro:macro>"""
    ]
    for k in range(VARIANTS):
        calls = "\n".join(
            f'    <xacro:segment name="${{prefix}}_s{j}" parent="{"${parent}" if j == 0 else "${prefix}_s" + str(j - 1)}" '
            f'length="${{p{(k + j) % PROPERTIES} + 0.2}}" mass="${{mass{(k + j) % PROPERTIES}}}"/>'
            for j in range(6)
        )
        body.append(f"""  <xacro:macro name="arm{k}" params="prefix parent">
    <!-- arm variant {k}: six segments -->
{calls}
    <xacro:if value="${{{k} % 2 == 0}}">
      <link name="${{prefix}}_tool{k}"/>
      <joint name="${{prefix}}_tool{k}_joint" type="fixed"><parent link="${{prefix}}_s5"/><child link="${{prefix}}_tool{k}"/></joint>
    </xacro:if>
  </xacro:macro>""")
    return (
        '<?xml version="1.0"?>\n<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        + "\n".join(body)
        + "\n</robot>\n"
    )


def _sensors() -> str:
    body = []
    for k in range(VARIANTS):
        body.append(f"""  <xacro:macro name="camera{k}" params="name parent x:=0 y:=0 z:=0.3">
    <link name="${{name}}">
      <inertial><mass value="0.1"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>
      <visual><geometry><box size="0.02 0.08 0.03"/></geometry></visual>
    </link>
    <joint name="${{name}}_joint" type="fixed">
      <origin xyz="${{x}} ${{y}} ${{z}}" rpy="0 0 0"/>
      <parent link="${{parent}}"/>
      <child link="${{name}}"/>
    </joint>
    <gazebo reference="${{name}}">
      <sensor type="camera" name="${{name}}_sensor">
        <update_rate>30</update_rate>
        <camera><horizontal_fov>1.3</horizontal_fov><image><width>640</width><height>480</height></image></camera>
      </sensor>
    </gazebo>
  </xacro:macro>""")
    return (
        '<?xml version="1.0"?>\n<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        + "\n".join(body)
        + "\n</robot>\n"
    )


def _top(n_wheels: int, n_arms: int, n_cameras: int) -> str:
    rows = [
        '<?xml version="1.0"?>',
        '<robot name="bench_robot" xmlns:xacro="http://www.ros.org/wiki/xacro">',
        '  <xacro:include filename="$(find bench_description)/urdf/properties.xacro"/>',
        '  <xacro:include filename="$(find bench_description)/urdf/wheels.xacro"/>',
        '  <xacro:include filename="$(find bench_description)/urdf/arms.xacro"/>',
        '  <xacro:include filename="$(find bench_description)/urdf/sensors.xacro"/>',
        '  <xacro:arg name="with_arms" default="true"/>',
        '  <link name="base_link">',
        INERTIAL.format(mass="mass0"),
        '    <visual><geometry><box size="1 0.6 0.2"/></geometry></visual>',
        "  </link>",
    ]
    for i in range(n_wheels):
        side = "left" if i % 2 == 0 else "right"
        rows.append(
            f'  <xacro:wheel{i % VARIANTS} prefix="{side}{i}" parent="base_link" reflect="{1 if side == "left" else -1}">'
        )
        rows.append(f'    <origin xyz="{0.1 * i:.1f} {0.3 if side == "left" else -0.3} 0" rpy="0 0 0"/>')
        rows.append(f"  </xacro:wheel{i % VARIANTS}>")
    rows.append('  <xacro:if value="$(arg with_arms)">')
    for i in range(n_arms):
        rows.append(f'    <xacro:arm{i % VARIANTS} prefix="arm{i}" parent="base_link"/>')
    rows.append("  </xacro:if>")
    for i in range(n_cameras):
        rows.append(f'  <xacro:camera{i % VARIANTS} name="camera{i}" parent="base_link" x="{0.05 * i:.2f}"/>')
    rows.append("</robot>")
    return "\n".join(rows) + "\n"


def write_robot(root: Path, n_wheels: int = 40, n_arms: int = 12, n_cameras: int = 30) -> Path:
    """Write the package under ``root``; returns the top document's path."""
    pkg = root / "bench_description"
    (pkg / "urdf").mkdir(parents=True, exist_ok=True)
    (pkg / "package.xml").write_text(
        "<?xml version='1.0'?>\n<package format='3'><name>bench_description</name></package>\n"
    )
    (pkg / "urdf" / "properties.xacro").write_text(_properties(PROPERTIES))
    (pkg / "urdf" / "wheels.xacro").write_text(_wheel())
    (pkg / "urdf" / "arms.xacro").write_text(_arm())
    (pkg / "urdf" / "sensors.xacro").write_text(_sensors())
    top = pkg / "urdf" / "robot.urdf.xacro"
    top.write_text(_top(n_wheels, n_arms, n_cameras))
    return top


def line_count(top: Path) -> int:
    return sum(p.read_text().count("\n") for p in top.parent.glob("*.xacro"))
