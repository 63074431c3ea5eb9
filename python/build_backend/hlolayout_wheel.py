"""Writes the hlolayout wheel from a built extension module.

Shared by the two ways the wheel is made, so both give the same wheel:

    ./bazelw run -c opt //python:wheel -- dist/      # Bazel (python/wheel.py)
    pip install .                                    # CMake (hlolayout_build_backend.py)

The wheel holds the pure-Python package (python/hlolayout: *.py, *.pyi,
py.typed, and its subpackages' *.py), the extension as
hlolayout/_hlolayout<EXT_SUFFIX> and, in hlolayout/_libs, the shared libraries the extension needs beyond the C and
C++ runtimes (Debian's Abseil and protobuf: Debian ships their static
archives without -fPIC, so they cannot be linked into an extension). The
extension's RPATH is $ORIGIN/_libs (DT_RPATH, which also serves those
libraries' own dependencies).
"""

import base64
import hashlib
import os
import subprocess
import sys
import sysconfig
import zipfile

# Libraries every Linux system with a C++ compiler runtime has.
SYSTEM = ("linux-vdso", "libc.so", "libm.so", "libstdc++.so", "libgcc_s.so",
          "ld-linux", "libpthread.so", "libdl.so", "librt.so")

SUMMARY = "XLA HLO shapes and layouts: where every element lives"

# The licence and the list of others' material (the repository's top files),
# carried in the wheel's .dist-info.
LICENSE_FILES = ("LICENSE", "NOTICE")


def source_root():
    """The repository's top folder (this file is python/build_backend/)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))


def package_dir():
    return os.path.join(source_root(), "python", "hlolayout")


def version():
    """__version__ of python/hlolayout/_version.py, read without importing."""
    path = os.path.join(package_dir(), "_version.py")
    scope = {}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), scope)
    return scope["__version__"]


def wheel_tag():
    """(python tag, abi tag, platform tag) of the running interpreter."""
    tag = "cp%d%d" % sys.version_info[:2]
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return tag, tag, platform


def wheel_name():
    return "hlolayout-%s-%s.whl" % (version(), "-".join(wheel_tag()))


def dist_info_name():
    return "hlolayout-%s.dist-info" % version()


def metadata_text():
    return ("Metadata-Version: 2.1\nName: hlolayout\nVersion: %s\n"
            "Summary: %s\nLicense: Apache-2.0\nRequires-Python: >=3.9\n"
            "Requires-Dist: numpy\n" % (version(), SUMMARY))


def license_texts():
    """{name: bytes} of LICENSE and NOTICE from the repository's top."""
    texts = {}
    for name in LICENSE_FILES:
        with open(os.path.join(source_root(), name), "rb") as f:
            texts[name] = f.read()
    return texts


def needed_libraries(extension):
    """(soname, real path) of each non-system shared library `extension` loads."""
    out = subprocess.run(["ldd", extension], capture_output=True, text=True,
                         check=True).stdout
    libs = []
    for line in out.splitlines():
        parts = line.split()
        if "=>" not in parts:
            continue
        name, path = parts[0], parts[parts.index("=>") + 1]
        if name.startswith(SYSTEM) or not path.startswith("/"):
            continue
        libs.append((name, os.path.realpath(path)))
    return libs


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "%s,sha256=%s,%d" % (name, digest.decode(), len(data))


def wheel_files(extension, generator):
    """{archive name: bytes} of the wheel, RECORD included."""
    src = package_dir()
    files = {}
    # The package and its subpackages (hlolayout.cute_dsl and its nvgpu,
    # utils); BUILD, C++ sources and caches stay out.
    for root, dirs, names in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(root, src).replace(os.sep, "/")
        prefix = "hlolayout/" if rel == "." else "hlolayout/%s/" % rel
        for name in sorted(names):
            if name.endswith((".py", ".pyi")) or name == "py.typed":
                with open(os.path.join(root, name), "rb") as f:
                    files[prefix + name] = f.read()
    ext_name = "hlolayout/_hlolayout%s" % sysconfig.get_config_var("EXT_SUFFIX")
    with open(extension, "rb") as f:
        files[ext_name] = f.read()
    for soname, path in needed_libraries(extension):
        with open(path, "rb") as f:
            files["hlolayout/_libs/" + soname] = f.read()
    dist_info = dist_info_name()
    files[dist_info + "/METADATA"] = metadata_text().encode()
    for name, text in license_texts().items():
        files[dist_info + "/" + name] = text
    files[dist_info + "/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: %s\nRoot-Is-Purelib: false\nTag: %s\n" %
        (generator, "-".join(wheel_tag()))).encode()
    files[dist_info + "/top_level.txt"] = b"hlolayout\n"
    record = [record_line(n, d) for n, d in files.items()]
    record.append(dist_info + "/RECORD,,")
    files[dist_info + "/RECORD"] = ("\n".join(record) + "\n").encode()
    return files


def write_wheel(out_dir, extension, generator):
    """Writes the wheel into `out_dir`; returns its file name (not the path)."""
    os.makedirs(out_dir, exist_ok=True)
    name = wheel_name()
    with zipfile.ZipFile(os.path.join(out_dir, name), "w",
                         zipfile.ZIP_DEFLATED) as z:
        for member, data in wheel_files(extension, generator).items():
            info = zipfile.ZipInfo(member, date_time=(2020, 1, 1, 0, 0, 0))
            executable = member.endswith(".so") or ".so." in member
            info.external_attr = (0o755 if executable else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return name
