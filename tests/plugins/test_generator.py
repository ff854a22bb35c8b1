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
    for source in committed["sources"].values():
        repo = source.get("read_from", source["repo"]).replace("/", "+")  # gazebo-classic: read elsewhere
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


CMAKE = """
set (plugins_single_header
  AlphaPlugin   # a comment
  BetaPlugin
)
if (HAVE_X)
  set (plugins_single_header ${plugins_single_header}
    GammaPlugin
  )
endif()
add_library(BasePlugin SHARED BasePlugin.cc)
foreach (src ${plugins_single_header})
  add_library(${src} SHARED ${src}.cc)
endforeach ()
set (event_src Events.cc EventSource.cc)
add_library(EventsPlugin SHARED ${event_src})
"""


def test_cmake_libraries_expand_lists_and_loops():
    assert gen.cmake_libraries(CMAKE) == {
        "BasePlugin": ["BasePlugin.cc"],
        "AlphaPlugin": ["AlphaPlugin.cc"],
        "BetaPlugin": ["BetaPlugin.cc"],
        "GammaPlugin": ["GammaPlugin.cc"],
        "EventsPlugin": ["Events.cc", "EventSource.cc"],
    }


def test_a_plugin_is_read_with_the_bases_it_inherits():
    base = ("plugins/BasePlugin.hh", "class GZ_PLUGIN_VISIBLE BasePlugin : public ModelPlugin { };")
    base_cc = (
        "plugins/BasePlugin.cc",
        'void BasePlugin::Load(physics::ModelPtr, sdf::ElementPtr _sdf) { r = _sdf->Get<double>("rate"); }',
    )
    own = [("src/ros.h", "class RosPlugin : public gazebo::BasePlugin, RosUtils\n{\n};"), ("src/ros.cpp", "")]
    utils = [
        ("src/utils.h", "class RosUtils { };"),
        ("src/utils.cpp", 'void RosUtils::Load(sdf::ElementPtr _sdf) { t = _sdf->Get<std::string>("topicName"); }'),
    ]
    classes = {"BasePlugin": [base, base_cc], "RosUtils": utils}
    read, reasons = gen.with_bases("RosPlugin", own, classes)
    assert not reasons
    assert sorted(f for f, _ in read) == sorted(
        ["src/ros.h", "src/ros.cpp", "src/utils.h", "src/utils.cpp", "plugins/BasePlugin.hh", "plugins/BasePlugin.cc"]
    )
    r = gen.read_parameters([t for _, t in read])
    assert set(r.params) == {"rate", "topicName"}
    # a base we cannot read may read parameters of its own: the plugin is open
    _, reasons = gen.with_bases("RosPlugin", own, {"BasePlugin": [base, base_cc]})
    assert reasons == ["inherits RosUtils"]
    # helper classes beside the plugin (a rendering::Visual) are not the plugin's bases
    _, reasons = gen.with_bases(
        "P", [("p.h", "class V : public rendering::Visual {}; class P : public VisualPlugin {};")], {}
    )
    assert not reasons


def test_registered_classes_by_macro_or_by_hand():
    assert gen.registered("GZ_REGISTER_SENSOR_PLUGIN(gazebo::GazeboRosImuSensor)") == ["GazeboRosImuSensor"]
    by_hand = """extern "C" GZ_PLUGIN_VISIBLE gazebo::SensorPlugin * RegisterPlugin();
gazebo::SensorPlugin * RegisterPlugin()
{
  return (gazebo::CameraPlugin *)(new GazeboRosCamera());
}"""
    assert gen.registered(by_hand) == ["GazeboRosCamera"]


def test_constants_of_one_name_in_several_blocks_and_reads_on_a_childs_element():
    text = """
void A::Load(physics::WorldPtr _world, sdf::ElementPtr _sdf)
{
  {
    const std::string elemName = "model_name";
    sdf::ElementPtr elem = _sdf->GetElement(elemName);
    while (elem) { auto n = elem->Get<std::string>(); elem = elem->GetNextElement(elemName); }
  }
  {
    const std::string elemName = "arrangement";
    sdf::ElementPtr elem = _sdf->GetElement(elemName);
    while (elem)
    {
      sdf::ElementPtr poseElem = elem->GetElement("pose");
      while (poseElem)
      {
        auto model = poseElem->Get<std::string>("model");
        auto p = poseElem->Get<ignition::math::Pose3d>();
        auto deeper = poseElem->GetElement("offset");
        auto x = deeper->Get<double>("x");
        poseElem = poseElem->GetNextElement("pose");
      }
      elem = elem->GetNextElement(elemName);
    }
  }
}
"""
    r = gen.read_parameters([text])
    assert set(r.params) == {"model_name", "arrangement"}
    assert r.params["model_name"]["repeats"] and r.params["arrangement"]["repeats"]
    assert r.children == {"arrangement": {"pose"}}


CLASSIC = MIRROR / gen.CLASSIC_MIRROR / "repo"


@pytest.mark.skipif(not CLASSIC.exists(), reason=f"no mirror of {gen.CLASSIC_MIRROR} (the fetch tool)")
def test_pinned_gazebo_classic_plugins_against_their_sources():
    """gazebo-classic's plugins as their sources at the recorded release read them, and a gazebo_ros
    plugin built on one of them."""
    source = json.loads(CATALOGUE.read_text())["sources"]["gazebo-classic@gazebo11"]
    commit = source["read_commit"]
    try:
        _, found, classes = gen.gazebo_classic(CLASSIC, commit, "gazebo-classic@gazebo11")
    except Exception as exc:
        pytest.skip(f"the mirror lacks {commit}: {exc}")
    data = {"plugins": found}
    lift = _system(data, "LiftDragPlugin")
    assert not lift["open"] and lift["names"] == []  # gazebo-classic loads by file name only
    link = lift["params"]["link_name"]
    assert (link["type"], link["names"]) == ("string", "link")
    assert lift["params"]["cp"]["type"] == "vector3" and lift["params"]["control_joint_name"]["names"] == "joint"
    lines = gen.show(CLASSIC, commit, link["at"].split("#")[0]).splitlines()
    assert '"link_name"' in lines[int(link["at"].split("#L")[1]) - 1]
    # Load logs an error and returns without <joint>: required; DiffDrivePlugin only logs: not required
    gimbal = _system(data, "GimbalSmall2dPlugin")["params"]["joint"]
    assert gimbal["required"] and gimbal["names"] == "joint"
    diff = _system(data, "DiffDrivePlugin")["params"]
    assert diff["left_joint"]["names"] == "joint" and not diff["left_joint"].get("required")
    assert _system(data, "BreakableJointPlugin")["params"]["breaking_force_N"]["type"] == "double"
    assert _system(data, "SkidSteerDrivePlugin")["params"] == {}  # its joint names are fixed in the code
    slip = _system(data, "WheelSlipPlugin")["params"]["wheel"]
    assert slip["required"] and slip["repeats"] and "wheel_radius" in slip["children"]
    assert "CameraPlugin" in classes and "ElevatorPlugin" in classes
    ros = MIRROR / "ros-simulation+gazebo_ros_pkgs" / "repo"
    if not ros.exists():
        return
    ros_commit = json.loads(CATALOGUE.read_text())["sources"]["gazebo_ros_pkgs@noetic-devel"]["commit"]
    _, ros_found = gen.gazebo_ros(ros, ros_commit, "gazebo_ros_pkgs@noetic-devel", ("gazebo-classic@gazebo11", classes))
    elevator = _system({"plugins": ros_found}, "gazebo_ros_elevator")
    assert not elevator["open"]
    lift_joint = elevator["params"]["lift_joint"]  # ElevatorPlugin's, linked in gazebo-classic's source
    assert lift_joint["required"] and lift_joint["at"].startswith("gazebo-classic@gazebo11:plugins/ElevatorPlugin.cc#L")
    camera = _system({"plugins": ros_found}, "gazebo_ros_camera")
    assert not camera["open"] and "imageTopicName" in camera["params"]  # GazeboRosCameraUtils, its other base


REFUSALS = """
void R::Load(physics::ModelPtr _model, sdf::ElementPtr _sdf)
{
  if (!_sdf->HasElement("plot"))
  {
    gzwarn << "No plot elements" << std::endl;
    return;
  }
  if (!_sdf->HasElement("a") || !_sdf->HasElement("b"))
  {
    gzerr << "needs both" << std::endl;
    return;
  }
  if (!_sdf->HasElement("c") && !_sdf->HasElement("d"))
  {
    gzerr << "needs one" << std::endl;
    return;
  }
  if (!_sdf->HasElement("animation"))
  {
    if (this->count < 1)
    {
      gzerr << "no animation at all" << std::endl;
      return;
    }
  }
  if (!_sdf->HasElement("left"))
    gzerr << "missing <left>" << std::endl;
  for (auto e = _sdf->GetElement("wheel"); e; e = e->GetNextElement("wheel"))
  {
    if (!_sdf->HasElement("hub"))
    {
      gzerr << "skipping this wheel" << std::endl;
      return;
    }
  }
  this->sdf = _sdf;
  this->ReadData();
  this->ReadMode(_sdf->GetElement("mode"));
  double x = _sdf->Get<double>("plot") + _sdf->Get<double>("a") + _sdf->Get<double>("b") + _sdf->Get<double>("c")
    + _sdf->Get<double>("d") + _sdf->Get<double>("animation") + _sdf->Get<double>("left") + _sdf->Get<double>("hub")
    + _sdf->Get<double>("data") + _sdf->Get<double>("step");
}

void R::ReadData()
{
  if (!this->sdf->HasElement("data"))
  {
    gzerr << "No data file" << std::endl;
    return;
  }
}

void R::ReadMode(sdf::ElementPtr _sdf)
{
  if (!_sdf->HasElement("step"))
  {
    gzerr << "a mode without steps" << std::endl;
    return;
  }
}
"""


def test_required_when_the_code_refuses_to_work_without_it():
    """Any parameter the plugin gives up without (a test of its absence directly in Load/Configure,
    a step or a helper they call on the element the plugin keeps, with an error or warning and a
    return) is required, whatever it names; a complaint that goes on, a refusal of one part (a loop,
    a nested branch), a choice between two and a helper given another element are not."""
    p = gen.read_parameters([REFUSALS]).params
    required = {name for name, q in p.items() if q["required"]}
    assert required == {"plot", "a", "b", "data"}


def test_gz_gui_configuration_section_lines():
    header = """
  /// \\brief Shows a scene.
  ///
  /// ## Configuration
  ///
  /// * \\<engine\\> : Optional render engine name.
  /// * \\<camera_clip\\> : Clipping distances.
  ///     * \\<near\\> : near plane.
  /// \\<topic\\> : Unbulleted, as ImageDisplay writes it.
  /// * `<stats_topic>`: Quoted, as MarkerManager writes it.
  class Scene : public Plugin {};
"""
    lines = gen.header_doc_lines(
        header, "S.hh", {"engine", "camera_clip", "topic", "stats_topic"}, gen.GUI_DOC_SECTION, gen.GUI_DOC_ITEM
    )
    assert lines == {"engine": "S.hh#L6", "camera_clip": "S.hh#L7", "topic": "S.hh#L9", "stats_topic": "S.hh#L10"}


GUI = MIRROR / "gazebosim+gz-gui" / "repo"


@pytest.mark.skipif(not GUI.exists(), reason="no gz-gui mirror at /work/.mirror (fetch gazebosim/gz-gui)")
def test_pinned_gz_gui_parameters_link_their_lines():
    commit = json.loads(CATALOGUE.read_text())["sources"]["gz-gui@main"]["commit"]
    try:
        _, found = gen.gz_gui(GUI, commit, "gz-gui@main")
    except Exception as exc:
        pytest.skip(f"the mirror lacks {commit}: {exc}")
    engine = _system({"plugins": found}, "MinimalScene")["params"]["engine"]
    doc, at = engine["doc"], engine["at"]
    assert "<engine" in gen.show(GUI, commit, doc.split("#")[0]).splitlines()[int(doc.split("#L")[1]) - 1]
    assert '"engine"' in gen.show(GUI, commit, at.split("#")[0]).splitlines()[int(at.split("#L")[1]) - 1]
