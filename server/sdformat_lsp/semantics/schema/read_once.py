"""Which once-only children libsdformat's own classes read, by parent element.

libsdformat's parser keeps every copy of an element in its tree (an element
the spec allows once is not refused when repeated); its classes (``Link``,
``Model``, ``Sensor``...) then read a child with ``Get``/``GetElement``,
which return the first copy. So a second copy is ignored exactly where one of
these classes reads the child; elsewhere a simulator or plugin may iterate
all of them (Gazebo reads every ``<collision>`` of a contact sensor), and a
repeat is not a mistake we can name.

Taken from libsdformat's main branch: every ``_sdf->Get<T>("x")``,
``_sdf->GetElement("x")``, ``_sdf->FindElement("x")`` and ``loadPose(_sdf)``
in ``src/<Class>.cc``, the class named for the element it loads.
"""

from __future__ import annotations

READ_ONCE: dict[str, frozenset[str]] = {
    tag: frozenset(children.split())
    for tag, children in {
        "actor": "skin pose script",
        "air_pressure": "pressure",
        "air_speed": "pressure",
        "altimeter": "vertical_position vertical_velocity",
        "camera": "box_type camera_info_topic clip depth_camera distortion horizontal_fov image lens noise pose save "
        "segmentation_type trigger_topic triggered visibility_mask",
        "collision": "density geometry pose surface",
        "frame": "pose",
        "geometry": "box capsule cone cylinder ellipsoid heightmap mesh plane sphere",
        "gui": "fullscreen",
        "imu": "angular_velocity linear_acceleration orientation_reference_frame",
        "joint": "child parent pose screw_thread_pitch thread_pitch",
        "axis": "dynamics limit mimic xyz",
        "axis2": "dynamics limit mimic xyz",
        "lidar": "noise range scan visibility_mask",
        "ray": "noise range scan visibility_mask",
        "light": "attenuation pose spot",
        "link": "enable_wind gravity inertial kinematic pose",
        "material": "pbr script shader",
        "mesh": "convex_decomposition optimization submesh",
        "model": "allow_auto_disable canonical_link enable_wind placement_frame pose self_collide static",
        "navsat": "position_sensing velocity_sensing",
        "particle_emitter": "material pose",
        "projector": "far_clip fov near_clip pose texture visibility_flags",
        "scene": "sky",
        "sensor": "air_pressure air_speed altimeter camera enable_metrics force_torque frame_id imu magnetometer pose topic update_rate",
        "sky": "clouds",
        "surface": "contact friction",
        "visual": "cast_shadows geometry laser_retro material pose transparency visibility_flags",
        "world": "atmosphere audio gravity gui magnetic_field scene spherical_coordinates wind",
    }.items()
}


# ``Sensor::Load`` reads these children only for the sensor types named here (its ``type`` switch);
# for any other type libsdformat reads no copy (Gazebo classic's multicamera sensor reads every <camera>)
_CAMERA_TYPES = "camera depth depth_camera rgbd rgbd_camera thermal thermal_camera segmentation segmentation_camera boundingbox boundingbox_camera wideanglecamera wide_angle_camera"
SENSOR_CHILD_TYPES: dict[str, frozenset[str]] = {
    child: frozenset(types.split())
    for child, types in {
        "air_pressure": "air_pressure",
        "air_speed": "air_speed",
        "altimeter": "altimeter",
        "camera": _CAMERA_TYPES,
        "force_torque": "force_torque",
        "imu": "imu",
        "magnetometer": "magnetometer",
    }.items()
}


def read_once(parent: str, child: str, parent_type: str | None = None) -> bool:
    """Does libsdformat's class for ``<parent>`` read only the first ``<child>``?

    ``parent_type``: the parent's ``type`` attribute, which decides for a ``<sensor>``.
    """
    found = READ_ONCE.get(parent)
    if found is None or child not in found:
        return False
    if parent == "sensor" and child in SENSOR_CHILD_TYPES:
        return (parent_type or "").strip() in SENSOR_CHILD_TYPES[child]
    return True
