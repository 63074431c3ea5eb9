"""Builds the hlolayout wheel from the Bazel-built extension.

    ./bazelw run -c opt //python:wheel -- dist/
    python3 -m pip install dist/hlolayout-*.whl      # offline

Writes hlolayout-VERSION-cpXY-cpXY-linux_x86_64.whl into the directory
given (relative to where bazel was run). The wheel holds the pure-Python
package, the extension and, in hlolayout/_libs, the shared libraries it
needs beyond the C and C++ runtimes (Debian's Abseil, protobuf and their
dependencies: Debian ships their static archives without -fPIC, so they
cannot be linked into an extension); the extension's RPATH is
$ORIGIN/_libs.
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


def package_dir():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "hlolayout")


def needed_libraries(extension):
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


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: wheel OUTPUT_DIR")
    out_dir = sys.argv[1]
    if not os.path.isabs(out_dir):
        out_dir = os.path.join(os.environ.get("BUILD_WORKING_DIRECTORY", "."),
                               out_dir)
    os.makedirs(out_dir, exist_ok=True)
    src = package_dir()
    sys.path.insert(0, src)
    from _version import __version__ as version

    tag = "cp%d%d" % sys.version_info[:2]
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    dist_info = "hlolayout-%s.dist-info" % version
    files = {}
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if name.endswith((".py", ".pyi")) or name == "py.typed":
            with open(path, "rb") as f:
                files["hlolayout/" + name] = f.read()
    extension = os.path.join(src, "_hlolayout.so")
    ext_name = "hlolayout/_hlolayout%s" % sysconfig.get_config_var("EXT_SUFFIX")
    with open(extension, "rb") as f:
        files[ext_name] = f.read()
    for soname, path in needed_libraries(extension):
        with open(path, "rb") as f:
            files["hlolayout/_libs/" + soname] = f.read()
    files[dist_info + "/METADATA"] = (
        "Metadata-Version: 2.1\nName: hlolayout\nVersion: %s\n"
        "Summary: XLA HLO shapes and layouts: where every element lives\n"
        "Requires-Python: >=3.9\nRequires-Dist: numpy\n" % version).encode()
    files[dist_info + "/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: hlolayout python/wheel.py\n"
        "Root-Is-Purelib: false\nTag: %s-%s-%s\n" % (tag, tag, platform)).encode()
    files[dist_info + "/top_level.txt"] = b"hlolayout\n"
    record = [record_line(n, d) for n, d in files.items()]
    record.append(dist_info + "/RECORD,,")
    files[dist_info + "/RECORD"] = ("\n".join(record) + "\n").encode()

    wheel = os.path.join(out_dir, "hlolayout-%s-%s-%s-%s.whl" %
                         (version, tag, tag, platform))
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith(".so") or ".so." in name
                                  else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    print(wheel)


if __name__ == "__main__":
    main()
