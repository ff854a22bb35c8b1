"""scripts/generate_plugins.py: its reading of C++ on snippets of our own, and its output pinned
against the plugins' sources (when the mirrors are on this machine)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.generated import assert_pinned, load_script

REPO = Path(__file__).resolve().parents[2]
CATALOGUE = REPO / "server" / "sdformat_lsp" / "plugins" / "data" / "catalogue.json"
MIRROR = Path("/work/.mirror")
SIM = MIRROR / "gazebosim+gz-sim" / "repo"


gen = load_script("generate_plugins")

WHEELS = """
void Wheels::Configure(const Entity &_entity, const std::shared_ptr<const sdf::Element> &_sdf,
                       EntityComponentManager &_ecm, EventManager &)
{
  // _sdf->Get<double>("commented_out") is not read
  auto elem = _sdf->FindElement("axle_joint");
  while (elem)
  {
    this->axles.push_back(elem->Get<std::string>());
    elem = elem->GetNextElement("axle_joint");
  }
  this->radius = _sdf->Get<double>("radius", 0.25).first;
  if (!_sdf->HasElement("hub_link"))
  {
    gzerr << "no hub" << std::endl;
    return;
  }
  std::string hub = _sdf->Get<std::string>("hub_link");
  this->hubEntity = this->model.LinkByName(_ecm, hub);
  if (_sdf->HasElement("gains"))
  {
    auto gains = _sdf->GetElement("gains");
    this->p = gains->Get<double>("p");
  }
  this->enabled = _sdf->Get<bool>("enabled", true).first;
  this->offset = _sdf->Get<math::Vector3d>("offset");
  this->cmdTopic = _sdf->Get<std::string>("command_topic");
}

void Wheels::PreUpdate(const UpdateInfo &, EntityComponentManager &_ecm)
{
  for (const auto &name : this->axles)
  {
    Entity joint = this->model.JointByName(_ecm, name);
  }
}
"""


def test_reading_of_a_system_of_our_own():
    r = gen.read_parameters([WHEELS])
    assert not r.open_reasons
    p = r.params
    assert "commented_out" not in p
    assert p["axle_joint"]["repeats"] and p["axle_joint"]["names"] == "joint" and p["axle_joint"]["type"] == "string"
    assert p["radius"]["type"] == "double" and p["radius"]["default"] == "0.25"
    assert p["hub_link"]["required"] and p["hub_link"]["names"] == "link"
    assert p["enabled"]["type"] == "bool" and p["enabled"]["default"] == "true"
    assert p["offset"]["type"] == "vector3"
    assert p["command_topic"]["names"] == "topic"
    assert "p" not in p and r.children["gains"] == {"p"}  # read from <gains>, not from the plugin


def test_names_decided_at_run_time_make_a_plugin_open():
    r = gen.read_parameters(["void F(const sdf::ElementPtr &_sdf) { for (auto &n : names) x = _sdf->Get<double>(n); }"])
    assert r.open_reasons == ["Get(n)"]
    r = gen.read_parameters(["void F(sdf::ElementPtr _sdf) { auto e = _sdf->GetFirstElement(); }"])
    assert r.open_reasons
    # a name held in a constant is still a literal
    r = gen.read_parameters(
        ['constexpr char kRate[] = "rate";\nvoid F(sdf::ElementPtr _sdf) { r = _sdf->Get<int>(kRate); }']
    )
    assert not r.open_reasons and r.params["rate"]["type"] == "int"


def test_a_check_that_does_not_stop_is_not_a_requirement():
    text = 'void F(sdf::ElementPtr _sdf) { if (!_sdf->HasElement("rate")) { gzwarn << "default"; } r = _sdf->Get<int>("rate"); }'
    assert not gen.read_parameters([text]).params["rate"]["required"]


def test_ros1_helper_reads():
    text = """void P::Load(physics::ModelPtr _parent, sdf::ElementPtr _sdf) {
      gazebo_ros_->getParameter<double>(wheel_separation_, "wheelSeparation", 0.34);
      gazebo_ros_->getParameterBoolean(publish_tf_, "publishTf", true);
      joints_[LEFT] = gazebo_ros_->getJoint(parent, "leftJoint", "left_joint");
    }"""
    p = gen.read_parameters([text]).params
    assert p["wheelSeparation"]["type"] == "double" and p["wheelSeparation"]["default"] == "0.34"
    assert p["publishTf"]["type"] == "bool"
    assert p["leftJoint"]["names"] == "joint"


def test_header_documentation_section():
    header = """
  /// \\brief Moves things.
  ///
  /// ## System Parameters
  ///
  /// - `<axle_joint>`: A joint. This element can appear multiple times.
  /// - `<hub_link>`: Required. The hub.
  /// - `<radius>`: Optional, default 0.25.
  class Wheels : public System {};
"""
    doc = gen.read_header_doc(header)
    assert doc == {
        "axle_joint": {"repeats": True, "required": False},
        "hub_link": {"repeats": False, "required": True},
        "radius": {"repeats": False, "required": False},
    }


needs_mirror = pytest.mark.skipif(not SIM.exists(), reason="no gz-sim mirror at /work/.mirror (fetch gazebosim/gz-sim)")


@needs_mirror
def test_committed_catalogue_is_what_the_generator_makes_from_its_recorded_commits():
    committed = json.loads(CATALOGUE.read_text())
    for name in committed["sources"]:
        repo = committed["sources"][name]["repo"].replace("/", "+")
        if not (MIRROR / repo / "repo").exists():
            pytest.skip(f"no mirror of {repo}")
    try:
        built = gen.generate(MIRROR, committed["sources"])
    except Exception as exc:  # the mirror lacks a recorded commit (a newer snapshot)
        pytest.skip(f"cannot regenerate from the recorded commits: {exc}")
    assert_pinned({CATALOGUE.name: gen.render(built)}, {CATALOGUE.name: CATALOGUE.read_text()}, "generate_plugins")


def _system(data: dict, filename: str) -> dict:
    return next(p for p in data["plugins"] if filename in p["filenames"])


@needs_mirror
def test_pinned_systems_against_their_sources():
    """A few systems, as their sources at the recorded commit read them."""
    commit = json.loads(CATALOGUE.read_text())["sources"]["gz-sim@main"]["commit"]
    try:
        _, found = gen.gz_sim(SIM, commit, "gz-sim@main")
    except Exception as exc:
        pytest.skip(f"the mirror lacks {commit}: {exc}")
    data = {"plugins": found}
    diff = _system(data, "gz-sim-diff-drive-system")
    assert diff["names"] == ["gz::sim::systems::DiffDrive"] and not diff["open"]
    left = diff["params"]["left_joint"]
    assert {k: left[k] for k in ("type", "repeats", "names", "required")} == {
        "type": "string",
        "repeats": True,
        "names": "joint",
        "required": True,  # PreUpdate returns while no left joint was found
    }
    # the lines the hover links to: the header's documentation of it, and the call that reads it
    header = gen.show(SIM, commit, left["doc"].split("#")[0]).splitlines()
    assert "<left_joint>" in header[int(left["doc"].split("#L")[1]) - 1]
    source = gen.show(SIM, commit, left["at"].split("#")[0]).splitlines()
    assert '"left_joint"' in source[int(left["at"].split("#L")[1]) - 1]
    assert {k: v for k, v in diff["params"]["odom_publish_frequency"].items() if k not in ("at", "doc")} == {
        "type": "double",
        "default": "50",
    }
    assert diff["params"]["wheel_radius"]["type"] == "double"
    jpc = _system(data, "gz-sim-joint-position-controller-system")
    jn = jpc["params"]["joint_name"]
    assert (jn["type"], jn["repeats"], jn["names"], jn["required"]) == ("string", True, "joint", True)
    assert jpc["params"]["use_velocity_commands"]["type"] == "bool"
    thruster = _system(data, "gz-sim-thruster-system")
    tj = thruster["params"]["joint_name"]
    assert (tj["type"], tj["required"], tj["names"]) == ("string", True, "joint")
    # a helper every caller gives a literal name: those names, and the plugin is not open
    lta = _system(data, "gz-sim-lighter_than_air_dynamics-system")
    assert not lta["open"] and lta["params"]["air_density"]["type"] == "double"
    # names read from a parameter's element by a helper are that parameter's children
    sensors = _system(data, "gz-sim-sensors-system")
    assert not sensors["open"] and "resolution" not in sensors["params"]
    # VelocityControl gives up on its links only, not as a whole: <link_name> stays optional
    assert not _system(data, "gz-sim-velocity-control-system")["params"]["link_name"].get("required")
    buoy = _system(data, "gz-sim-buoyancy-engine-system")
    assert "gz::sim::systems::BuoyancyEngine" in buoy["names"]  # a GZ_ADD_PLUGIN_ALIAS
    assert buoy["params"]["link_name"]["names"] == "link" and buoy["params"]["link_name"]["required"]
    hydro = _system(data, "gz-sim-hydrodynamics-system")
    assert hydro["open"]  # reads parameter names built at run time


def test_a_helper_given_literal_names_reads_those_names():
    text = """
double Param(const sdf::ElementPtr &_sdf, const std::string &_field, double _default)
{
  return _sdf->Get<double>(_field, _default).first;
}
void P::Configure(const Entity &, const std::shared_ptr<const sdf::Element> &_sdf, EntityComponentManager &, EventManager &)
{
  this->a = Param(_sdf, "alpha", 0.5);
  this->b = Param(_sdf, "beta", 2);
}
"""
    r = gen.read_parameters([text])
    assert not r.open_reasons
    assert r.params["alpha"]["type"] == "double" and r.params["alpha"]["default"] == "0.5"
    assert r.params["beta"]["default"] == "2"
    # one caller passing a name built at run time: open again
    r = gen.read_parameters([text.replace('"beta"', "prefix + suffix")])
    assert r.open_reasons


def test_required_when_the_named_entity_not_found_stops_the_plugin():
    text = """
void W::Configure(const Entity &, const std::shared_ptr<const sdf::Element> &_sdf, EntityComponentManager &, EventManager &)
{
  auto elem = _sdf->FindElement("axle");
  while (elem) { this->axleNames.push_back(elem->Get<std::string>()); elem = elem->GetNextElement("axle"); }
  this->hubName = _sdf->Get<std::string>("hub");
}
void W::PreUpdate(const UpdateInfo &, EntityComponentManager &_ecm)
{
  for (const std::string &name : this->axleNames)
  {
    Entity joint = this->model.JointByName(_ecm, name);
    if (joint != kNullEntity)
      this->axles.push_back(joint);
  }
  if (this->axles.empty())
    return;
  if (this->hubName.empty())
    return;
}
"""
    p = gen.read_parameters([text]).params
    assert p["axle"]["required"] and p["axle"]["names"] == "joint"
    # a test of the name itself without an error is a branch of the work, not a requirement
    assert not p["hub"]["required"]


def test_a_string_given_a_literal_once_is_that_name():
    text = """
void B::Load(sensors::SensorPtr _parent, sdf::ElementPtr _sdf)
{
  std::string paramName = "breaking_force";
  if (_sdf->HasElement(paramName))
    this->force = _sdf->Get<double>(paramName);
}
"""
    r = gen.read_parameters([text])
    assert not r.open_reasons and r.params["breaking_force"]["type"] == "double"
    # assigned again later: decided at run time
    r = gen.read_parameters([text.replace("  if (", "  paramName = other;\n  if (", 1)])
    assert r.open_reasons


def test_walking_a_parameters_children_leaves_the_plugin_closed():
    text = (
        'void F(const sdf::ElementPtr &_sdf) { auto g = _sdf->FindElement("graded");'
        " auto a = g->GetFirstElement(); if (!_sdf->GetFirstElement()) return; }"
    )
    r = gen.read_parameters([text])
    assert not r.open_reasons and r.params["graded"]["open_children"]


def test_merging_branches_is_a_union():
    a = {
        "source": "x@1",
        "dir": "d",
        "header": None,
        "filenames": ["gz-sim-w-system"],
        "names": ["gz::sim::systems::W"],
        "open": [],
        "params": {"r": {"type": "double", "required": True}, "old": {"type": "int"}},
    }
    b = {
        "source": "x@2",
        "dir": "d",
        "header": None,
        "filenames": ["ignition-gazebo-w-system"],
        "names": ["gz::sim::systems::W"],
        "open": [],
        "params": {"r": {"type": "double"}, "new": {"type": "bool"}, "old": {"type": "string"}},
    }
    (m,) = gen.merge([a, b])
    assert m["sources"] == ["x@1", "x@2"] and m["filenames"] == ["gz-sim-w-system"]
    assert m["params"] == {
        "new": {"type": "bool"},
        "old": {"type": "string"},
        "r": {"type": "double"},
    }  # required in one only
