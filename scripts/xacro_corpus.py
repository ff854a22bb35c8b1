#!/usr/bin/env python3
"""Lay out the xacro corpus outside the repository: ROS robot descriptions from bare mirrors.

Robot arms, mobile bases, drones, grippers and Gazebo worlds written in xacro, each repository's
newest commit written below ``<corpus>/src/owner+name/`` by ``scripts/corpus.py`` (which records
the commits in ``<corpus>/COMMITS.tsv``). ``scripts/xacro_compare.py`` expands them.

    python scripts/xacro_corpus.py [--mirrors /work/.mirror] [--corpus /work/corpus-xacro] [REPO ...]

Bring a repository onto the machine first (the tool library's ``fetch github:owner/name``).
"""

from __future__ import annotations

import sys

from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus  # noqa: E402  (scripts/corpus.py)

XACRO = (
    "ros/xacro",
    "ros-industrial/universal_robot",
    "frankaemika/franka_ros",
    "husky/husky",
    "ROBOTIS-GIT/turtlebot3",
    "clearpathrobotics/cpr_gazebo",
    "ethz-asl/rotors_simulator",
    "osrf/vrx",
    "PR2/pr2_common",
    "pal-robotics/tiago_robot",
    "ros-simulation/gazebo_ros_pkgs",
)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--corpus" not in argv:
        argv += ["--corpus", "/work/corpus-xacro"]
    corpus.SETS["xacro"] = XACRO
    return corpus.main(argv + ["--set", "xacro"])


if __name__ == "__main__":
    sys.exit(main())
