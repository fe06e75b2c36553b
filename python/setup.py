"""setup.py — what pip runs to install the hoyle package from a checkout
(`pip install ./python`): the pure-Python package plus libhoyle.so bundled
next to it (hoyle/libhoyle.so, the second place hoyle/_lib.py looks), and
the hoyle._speed extension built beside it when Python's headers were there, so
the installed package needs no HOYLE_LIB and no build tree.

The library comes from, first match wins:
  1. $HOYLE_BUNDLE_LIB: a built libhoyle.so, copied as it is;
  2. $HOYLE_BUILD_DIR (default: the checkout's build/ when it is a
     configured CMake tree): `cmake --build DIR --target hoyle_shared`,
     a no-op when it is up to date;
  3. a new CMake tree, python/build-pip/ (Release): configured and built
     with Debian's toolchain (scripts/install-deps has the packages), offline.
The wheel is tagged for this platform (it holds a native library)."""
import glob
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def version():
    for line in open(os.path.join(ROOT, "CMakeLists.txt")):
        if line.startswith("project(hoyle VERSION"):
            return line.split("VERSION")[1].split()[0]
    raise RuntimeError("hoyle: no project(hoyle VERSION ...) line in CMakeLists.txt")


def cmake_build(build_dir, configure):
    if configure:
        subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release"], check=True)
    jobs = str(os.cpu_count() or 1)
    subprocess.run(["cmake", "--build", build_dir, "--target", "hoyle_shared", "-j", jobs], check=True)
    return os.path.join(build_dir, "api", "libhoyle.so")


def find_library():
    bundle = os.environ.get("HOYLE_BUNDLE_LIB")
    if bundle:
        if not os.path.isfile(bundle):
            raise RuntimeError(f"hoyle: HOYLE_BUNDLE_LIB={bundle}: no such file")
        return bundle
    build_dir = os.environ.get("HOYLE_BUILD_DIR") or os.path.join(ROOT, "build")
    if os.path.isfile(os.path.join(build_dir, "CMakeCache.txt")):
        return cmake_build(build_dir, configure=False)
    if not os.path.isfile(os.path.join(ROOT, "api", "api.h")):
        raise RuntimeError("hoyle: not in a hoyle checkout (no api/api.h above python/): set HOYLE_BUNDLE_LIB")
    return cmake_build(os.path.join(HERE, "build-pip"), configure=True)


class BuildPyWithLibrary(build_py):
    """build_py, then libhoyle.so (its real file, not the symlink) into the package."""

    def run(self):
        super().run()
        lib = os.path.realpath(find_library())
        dest = os.path.join(self.build_lib, "hoyle", "libhoyle.so")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(lib, dest)
        os.chmod(dest, 0o755)
        # hoyle._speed (hoyle/_speed.c), built beside the library when Python's headers are there
        for ext in glob.glob(os.path.join(os.path.dirname(lib), "_speed.*.so")):
            shutil.copyfile(ext, os.path.join(os.path.dirname(dest), os.path.basename(ext)))


class PlatformDistribution(Distribution):
    def has_ext_modules(self):
        return True  # a native library inside: a platform wheel, not py3-none-any


setup(version=version(), cmdclass={"build_py": BuildPyWithLibrary}, distclass=PlatformDistribution)
