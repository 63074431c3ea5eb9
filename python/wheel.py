"""Builds the hlolayout wheel from the Bazel-built extension.

    ./bazelw run -c opt //python:wheel -- dist/
    python3 -m pip install dist/hlolayout-*.whl      # offline

Writes hlolayout-VERSION-cpXY-cpXY-linux_x86_64.whl into the directory
given (relative to where bazel was run). `pip install .` makes the same
wheel from the CMake build; both write it with
python/build_backend/hlolayout_wheel.py, which says what the wheel holds.
"""

import os
import sys

import hlolayout_wheel


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: wheel OUTPUT_DIR")
    out_dir = sys.argv[1]
    if not os.path.isabs(out_dir):
        out_dir = os.path.join(os.environ.get("BUILD_WORKING_DIRECTORY", "."),
                               out_dir)
    extension = os.path.join(hlolayout_wheel.package_dir(), "_hlolayout.so")
    name = hlolayout_wheel.write_wheel(out_dir, extension,
                                       "hlolayout python/wheel.py (Bazel)")
    print(os.path.join(out_dir, name))


if __name__ == "__main__":
    main()
