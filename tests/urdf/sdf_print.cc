// Prints the SDFormat libsdformat makes of a file (a URDF is converted): sdf_print FILE. Built by tests/urdf/conftest.py.
#include <iostream>
#include <sdf/sdf.hh>

int main(int argc, char **argv)
{
  if (argc != 2)
  {
    std::cerr << "usage: sdf_print FILE\n";
    return 2;
  }
  sdf::SDFPtr sdf(new sdf::SDF());
  sdf::init(sdf);
  sdf::Errors errors;
  if (!sdf::readFile(argv[1], sdf, errors) || !errors.empty())
  {
    for (const auto &e : errors)
      std::cerr << e.Message() << "\n";
    return 1;
  }
  std::cout << sdf->Root()->ToString("");
  return 0;
}
