"""Looking elements up in the generated schema."""

from __future__ import annotations

import dataclasses

import pytest

from sdformat_lsp.spec import ElementSpec, known_versions, latest_version, schema_for


def test_known_versions_are_sorted_numerically() -> None:
    versions = known_versions()
    assert versions[0] == "1.0" and versions[-1] == "1.12" == latest_version()
    assert versions.index("1.9") < versions.index("1.10")
    assert "1.1" not in versions


def test_unknown_version_has_no_schema() -> None:
    assert schema_for("2.0") is None
    assert schema_for("") is None
    assert schema_for("1.12") is schema_for("1.12")  # cached


def test_root_of_old_and_new_versions() -> None:
    assert schema_for("1.12").root().name == "sdf"
    assert schema_for("1.0").root().name == "gazebo"
    assert schema_for("1.12").root().attribute("version").is_required


def test_model_link_pose() -> None:
    s = schema_for("1.12")
    pose = s.root().child("model").child("link").child("pose")
    assert isinstance(pose, ElementSpec)
    assert pose.type == "pose" and pose.default == "0 0 0 0 0 0"
    assert pose.required == "0" and not pose.allows_many
    assert set(pose.attributes) == {"relative_to", "degrees", "rotation_format"}
    assert s.element_at(["sdf", "world", "model", "link", "pose"]).type == "pose"
    assert s.element_at(["sdf", "world", "model", "nosuch"]) is None
    assert s.element_at(["robot"]) is None


def test_nested_model_is_a_reference() -> None:
    s = schema_for("1.12")
    model = s.root().child("model")
    slot = model.children["model"]
    assert slot.ref == "model" and slot.required == "*"
    nested = model.child("model")
    assert nested.definition == "model" and nested.allows_many
    deep = s.element_at(["sdf", "model", "model", "model", "link", "collision", "geometry", "box", "size"])
    assert deep.type == "vector3"
    assert nested.since_version == "1.5"
    assert schema_for("1.4").root().child("model").child("model") is None


def test_joint_parent_and_child_are_required_once() -> None:
    joint = schema_for("1.12").element_at(["sdf", "model", "joint"])
    for name in ("parent", "child"):
        assert joint.children[name].required == "1"
        assert joint.child(name).type == "string"
    assert joint.attribute("type").is_required and joint.attribute("name").is_required


def test_relative_to_appears_in_1_7() -> None:
    # The spec files put @relative_to on <pose> from 1.7 on (1.5 and 1.6 had @frame).
    def pose_attrs(v: str) -> set[str]:
        return set(schema_for(v).element_at(["sdf", "model", "link", "pose"]).attributes)

    assert "relative_to" in pose_attrs("1.7")
    assert "relative_to" in pose_attrs("1.8")
    assert "relative_to" not in pose_attrs("1.6")
    assert "frame" in pose_attrs("1.6")
    pose = schema_for("1.12").element_at(["sdf", "model", "pose"])
    assert pose.attribute("relative_to").since_version == "1.7"
    assert pose.attribute("degrees").since_version == "1.9"


def test_since_versions() -> None:
    s = schema_for("1.12")
    model = s.root().child("model")
    assert s.root().since_version == "1.0"
    assert model.since_version == "1.0"
    assert model.child("link").since_version == "1.0"
    assert model.child("frame").since_version == "1.5"
    assert model.attribute("canonical_link").since_version == "1.7"
    assert model.attribute("placement_frame").since_version == "1.8"
    assert model.child("include").child("merge") is None  # merge is an attribute
    assert model.child("include").attribute("merge").since_version == "1.9"
    joint = model.child("joint")
    assert joint.child("axis").child("mimic").since_version == "1.11"
    assert joint.child("screw_thread_pitch").since_version == "1.10"


def test_deprecated_elements() -> None:
    joint = schema_for("1.12").element_at(["sdf", "model", "joint"])
    assert joint.child("thread_pitch").deprecated
    assert joint.children["thread_pitch"].deprecated
    assert not joint.child("screw_thread_pitch").deprecated
    assert not joint.deprecated


def test_plugin_is_free_form() -> None:
    s = schema_for("1.12")
    plugin = s.element_at(["sdf", "world", "plugin"])
    assert plugin.copy_data and plugin.attribute("filename").is_required
    assert not s.element_at(["sdf", "world", "model"]).copy_data


def test_min_max_and_no_invented_enums() -> None:
    s = schema_for("1.12")
    restitution = s.element_at(["sdf", "model", "link", "collision", "surface", "bounce", "restitution_coefficient"])
    assert (restitution.min, restitution.max) == ("0.0", "1.0")
    joint = s.element_at(["sdf", "model", "joint"])
    assert joint.enum_values == ()
    for spec in (restitution, joint, s.root()):
        assert all(not c.enum_values for c in spec.iter_children())


def test_specs_are_frozen() -> None:
    pose = schema_for("1.12").element_at(["sdf", "model", "pose"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        pose.name = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        pose.attributes["x"] = None  # type: ignore[index]


def test_top_level_definitions() -> None:
    s = schema_for("1.12")
    for def_id in ("model", "world", "actor", "light", "link", "pose"):
        assert s.definition(def_id) is not None
    assert s.definition("rfid").name == "rfidtag"  # the file names are swapped upstream
    assert s.definition_named("rfidtag").definition == "rfid"
    assert s.definition("nosuch") is None


def test_each_version_walks_to_model_link() -> None:
    for v in known_versions():
        root = schema_for(v).root()
        model = root.child("model") or (root.child("world") and root.child("world").child("model"))
        assert model is not None and model.child("link") is not None, v
