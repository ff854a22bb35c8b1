import os
import re


class PackageNotFoundError(KeyError):
    pass


def get_package_share_directory(name):
    for root in os.environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep):
        for d, dirs, files in os.walk(root):
            dirs.sort()
            if "package.xml" in files:
                with open(os.path.join(d, "package.xml"), errors="replace") as f:
                    m = re.search(r"<name>\s*([^<\s]+)\s*</name>", f.read())
                dirs[:] = []
                if m and m.group(1) == name:
                    return d
    raise PackageNotFoundError(name)
