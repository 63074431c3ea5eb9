"""The in-tree PEP 517 build backend behind `pip install .`.

pyproject.toml names this module with `backend-path` and `requires = []`,
so pip needs nothing from a package index: on a Debian machine with cmake,
g++, libabsl-dev, libprotobuf-dev, protobuf-compiler, pybind11-dev,
python3-dev and python3-numpy,

    /usr/bin/python3 -m venv --system-site-packages v
    v/bin/pip install .

builds the extension with the repository's CMake build
(-DHLOLAYOUT_BUILD_PYTHON=ON, target _hlolayout, for the interpreter pip
runs) and writes the same wheel as `./bazelw run //python:wheel`
(hlolayout_wheel.py).

The CMake build folder is kept between installs, so a second
`pip install .` only rebuilds what changed. It is, first found:
  --config-settings=build-dir=PATH   (pip's -C build-dir=PATH)
  $HLOLAYOUT_CMAKE_BUILD_DIR
  build/pip-cpXY in the repository (build/ is ignored by git and Bazel)
An existing build folder keeps its configuration (generator, build type),
so one configured for another purpose (CI's consumer check) is reused; a
new one is configured as Release, with Ninja when it is on PATH. Set
$HLOLAYOUT_BUILD_JOBS to limit the parallel compile jobs (default: every
core). Editable installs (`pip install -e`) are not supported.
"""

import io
import os
import shutil
import subprocess
import sys
import tarfile

import hlolayout_wheel

ROOT = hlolayout_wheel.source_root()


def _build_dir(config_settings):
    settings = config_settings or {}
    path = settings.get("build-dir") or os.environ.get("HLOLAYOUT_CMAKE_BUILD_DIR")
    if not path:
        path = os.path.join(ROOT, "build", "pip-" + hlolayout_wheel.wheel_tag()[0])
    return os.path.abspath(path)


def _run(args):
    print("hlolayout build: " + " ".join(args), file=sys.stderr, flush=True)
    try:
        subprocess.run(args, check=True, stdout=sys.stderr)
    except FileNotFoundError:
        raise RuntimeError("hlolayout build: %s not found; install Debian's "
                           "cmake (and ninja-build) and retry" % args[0])
    except subprocess.CalledProcessError as e:
        raise RuntimeError("hlolayout build: `%s` failed with exit status %d "
                           "(its output is above)" % (" ".join(args), e.returncode))


def _build_extension(build_dir):
    """Configures (once) and builds the extension; returns its path."""
    configure = ["cmake", "-S", ROOT, "-B", build_dir,
                 "-DHLOLAYOUT_BUILD_PYTHON=ON",
                 "-DPython3_EXECUTABLE=" + sys.executable]
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        configure.append("-DCMAKE_BUILD_TYPE=Release")
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
    _run(configure)
    jobs = os.environ.get("HLOLAYOUT_BUILD_JOBS") or str(os.cpu_count() or 1)
    _run(["cmake", "--build", build_dir, "--target", "_hlolayout", "-j", jobs])
    path_file = os.path.join(build_dir, "python", "hlolayout_extension_path.txt")
    with open(path_file) as f:
        extension = f.read().strip()
    if not os.path.exists(extension):
        raise RuntimeError("hlolayout build: %s was not built" % extension)
    return extension


# PEP 517 hooks.


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist_info = os.path.join(metadata_directory, hlolayout_wheel.dist_info_name())
    os.makedirs(dist_info, exist_ok=True)
    with open(os.path.join(dist_info, "METADATA"), "w") as f:
        f.write(hlolayout_wheel.metadata_text())
    return os.path.basename(dist_info)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    extension = _build_extension(_build_dir(config_settings))
    return hlolayout_wheel.write_wheel(
        wheel_directory, extension,
        "hlolayout python/build_backend (CMake)")


def _sdist_members():
    """The files git tracks, or, outside a git checkout, every file but
    build outputs."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"],
                             capture_output=True, check=True).stdout
        return sorted(p for p in out.decode().split("\0") if p)
    except (OSError, subprocess.CalledProcessError):
        members = []
        for top, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs
                       if d not in (".git", "build", ".build") and
                       not d.startswith("bazel-")]
            members += [os.path.relpath(os.path.join(top, f), ROOT) for f in files]
        return sorted(members)


def build_sdist(sdist_directory, config_settings=None):
    base = "hlolayout-%s" % hlolayout_wheel.version()
    name = base + ".tar.gz"
    os.makedirs(sdist_directory, exist_ok=True)
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz",
                      dereference=True) as tar:
        for member in _sdist_members():
            path = os.path.join(ROOT, member)
            if os.path.isfile(path):
                tar.add(path, arcname=base + "/" + member)
        info = tarfile.TarInfo(base + "/PKG-INFO")
        data = hlolayout_wheel.metadata_text().encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return name
