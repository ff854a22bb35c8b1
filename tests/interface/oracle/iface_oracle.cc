// iface_oracle: libsdformat (12, the machine's libsdformat-dev) with a custom model parser for
// ".iface" files, a line format of our own (read the same way by tests/interface/iface_format.py):
//   model NAME CANONICAL x y z roll pitch yaw [static]   (a nested model until its "end")
//   link NAME x y z roll pitch yaw
//   frame NAME ATTACHED_TO x y z roll pitch yaw
//   joint NAME CHILD x y z roll pitch yaw
//   end
// usage: iface_oracle FILE.sdf
// Prints one line per frame of the root scope (a //world/frame or //model/frame): its name, its
// pose relative to the root scope (world, or the model's __model__) and the body it is attached
// to, or "error: ..." lines for the load errors.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <ignition/math/Pose3.hh>
#include <sdf/sdf.hh>

using ignition::math::Pose3d;

namespace {
Pose3d ReadPose(std::istringstream &_in) {
  double v[6] = {0, 0, 0, 0, 0, 0};
  for (double &x : v) _in >> x;
  return Pose3d(v[0], v[1], v[2], v[3], v[4], v[5]);
}

sdf::InterfaceModelPtr Parse(const std::string &_file, const std::string &_name, sdf::Errors &_errors) {
  std::ifstream in(_file);
  if (!in) {
    _errors.push_back({sdf::ErrorCode::FILE_READ, "cannot read " + _file});
    return nullptr;
  }
  std::vector<sdf::InterfaceModelPtr> stack;
  sdf::InterfaceModelPtr top;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string word, name;
    ls >> word;
    if (word == "model") {
      std::string canonical, flag;
      ls >> name >> canonical;
      Pose3d pose = ReadPose(ls);
      ls >> flag;
      if (stack.empty() && !_name.empty()) name = _name;
      auto m = std::make_shared<sdf::InterfaceModel>(name, nullptr, flag == "static", canonical, pose);
      if (!stack.empty()) stack.back()->AddNestedModel(m);
      else top = m;
      stack.push_back(m);
    } else if (word == "end") {
      if (!stack.empty()) stack.pop_back();
    } else if (word == "link" && !stack.empty()) {
      ls >> name;
      stack.back()->AddLink({name, ReadPose(ls)});
    } else if (word == "frame" && !stack.empty()) {
      std::string attached;
      ls >> name >> attached;
      stack.back()->AddFrame({name, attached, ReadPose(ls)});
    } else if (word == "joint" && !stack.empty()) {
      std::string child;
      ls >> name >> child;
      stack.back()->AddJoint({name, child, ReadPose(ls)});
    }
  }
  return top;
}

void Print(const std::string &_name, const sdf::Frame *_frame) {
  Pose3d pose;
  sdf::Errors errs = _frame->SemanticPose().Resolve(pose);
  std::string body;
  sdf::Errors errs2 = _frame->ResolveAttachedToBody(body);
  if (!errs.empty()) {
    std::printf("frame %s unresolved\n", _name.c_str());
    return;
  }
  const auto r = pose.Rot().Euler();
  std::printf("frame %s %.17g %.17g %.17g %.17g %.17g %.17g %s\n", _name.c_str(), pose.Pos().X(), pose.Pos().Y(),
              pose.Pos().Z(), r.X(), r.Y(), r.Z(), errs2.empty() ? body.c_str() : "?");
}
}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: iface_oracle FILE.sdf\n");
    return 2;
  }
  sdf::ParserConfig config;
  config.RegisterCustomModelParser([](const sdf::NestedInclude &_include, sdf::Errors &_errors) -> sdf::InterfaceModelPtr {
    const std::string &file = _include.ResolvedFileName();
    if (file.size() < 6 || file.substr(file.size() - 6) != ".iface") return nullptr;
    return Parse(file, _include.LocalModelName().value_or(""), _errors);
  });
  sdf::Root root;
  sdf::Errors errors = root.Load(argv[1], config);
  for (const auto &e : errors) std::printf("error: %s\n", e.Message().c_str());
  if (root.WorldCount() > 0) {
    const sdf::World *w = root.WorldByIndex(0);
    for (uint64_t i = 0; i < w->FrameCount(); ++i) Print(w->FrameByIndex(i)->Name(), w->FrameByIndex(i));
    for (uint64_t m = 0; m < w->ModelCount(); ++m) {
      const sdf::Model *model = w->ModelByIndex(m);
      for (uint64_t i = 0; i < model->FrameCount(); ++i) {
        const sdf::Frame *f = model->FrameByIndex(i);
        Pose3d pose;
        sdf::Errors errs = f->SemanticPose().Resolve(pose, "world");
        std::string body;
        f->ResolveAttachedToBody(body);
        const auto r = pose.Rot().Euler();
        if (errs.empty())
          std::printf("frame %s::%s %.17g %.17g %.17g %.17g %.17g %.17g %s::%s\n", model->Name().c_str(), f->Name().c_str(),
                      pose.Pos().X(), pose.Pos().Y(), pose.Pos().Z(), r.X(), r.Y(), r.Z(), model->Name().c_str(), body.c_str());
        else
          std::printf("frame %s::%s unresolved\n", model->Name().c_str(), f->Name().c_str());
      }
    }
  } else if (root.Model() != nullptr) {
    const sdf::Model *model = root.Model();
    for (uint64_t i = 0; i < model->FrameCount(); ++i) Print(model->FrameByIndex(i)->Name(), model->FrameByIndex(i));
  }
  return 0;
}
