"""The wheel writer and the in-tree build backend behind `pip install .`.

The real install (CMake build, fresh virtual environment, offline) runs in
.ci/consumers.sh; these tests pin what the wheel holds and the PEP 517
hooks that need no compiler.
"""

import base64
import hashlib
import os
import sysconfig
import tarfile
import zipfile

import pytest

import hlolayout
import hlolayout_build_backend as backend
import hlolayout_wheel


def test_version_and_names_follow_the_package():
    assert hlolayout_wheel.version() == hlolayout.__version__
    name = hlolayout_wheel.wheel_name()
    assert name.startswith("hlolayout-%s-cp3" % hlolayout.__version__)
    assert name.endswith(".whl")
    metadata = hlolayout_wheel.metadata_text()
    assert "Name: hlolayout\n" in metadata
    assert "Version: %s\n" % hlolayout.__version__ in metadata
    assert "Requires-Dist: numpy\n" in metadata
    assert "License: Apache-2.0\n" in metadata


def test_wheel_holds_package_extension_and_libraries(tmp_path):
    extension = hlolayout._hlolayout.__file__
    name = hlolayout_wheel.write_wheel(str(tmp_path), extension, "test")
    with zipfile.ZipFile(tmp_path / name) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
        modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
    ext_name = "hlolayout/_hlolayout" + sysconfig.get_config_var("EXT_SUFFIX")
    assert ext_name in members and modes[ext_name] == 0o755
    for module in ("__init__.py", "cute.py", "grid.py", "_version.py", "py.typed"):
        assert "hlolayout/" + module in members
    # Subpackages too (hlolayout.cute_dsl), and nothing but Python from them.
    for module in ("cute_dsl/__init__.py", "cute_dsl/nvgpu/tcgen05.py",
                   "cute_dsl/utils/sm100.py", "cute_dsl/viz.py"):
        assert "hlolayout/" + module in members
    assert not any("__pycache__" in m or m.endswith(("BUILD", ".cc"))
                   for m in members)
    assert any(m.startswith("hlolayout/_libs/libabsl") for m in members)
    assert any(m.startswith("hlolayout/_libs/libprotobuf") for m in members)
    # Nothing the system always has is carried.
    assert not any(m.startswith("hlolayout/_libs/libc.so") for m in members)
    dist_info = "hlolayout-%s.dist-info/" % hlolayout.__version__
    tag = "-".join(hlolayout_wheel.wheel_tag())
    assert ("Tag: %s\n" % tag).encode() in members[dist_info + "WHEEL"]
    assert b"Root-Is-Purelib: false" in members[dist_info + "WHEEL"]
    # The licence and NOTICE travel with the wheel.
    assert b"Apache License" in members[dist_info + "LICENSE"]
    assert b"## Material from other projects" in members[dist_info + "NOTICE"]
    # RECORD lists every other member with its sha256 and size.
    record = members[dist_info + "RECORD"].decode().splitlines()
    listed = {}
    for line in record:
        path, digest, size = line.rsplit(",", 2)
        listed[path] = (digest, size)
    assert set(listed) == set(members)
    assert listed[dist_info + "RECORD"] == ("", "")
    for path, data in members.items():
        if path == dist_info + "RECORD":
            continue
        expected = base64.urlsafe_b64encode(
            hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert listed[path] == ("sha256=" + expected, str(len(data))), path


def test_backend_needs_nothing_from_an_index():
    assert backend.get_requires_for_build_wheel() == []
    assert backend.get_requires_for_build_sdist() == []


def test_backend_metadata(tmp_path):
    name = backend.prepare_metadata_for_build_wheel(str(tmp_path))
    assert name == "hlolayout-%s.dist-info" % hlolayout.__version__
    assert (tmp_path / name / "METADATA").read_text() == \
        hlolayout_wheel.metadata_text()


def test_backend_build_dir_choice(monkeypatch):
    monkeypatch.delenv("HLOLAYOUT_CMAKE_BUILD_DIR", raising=False)
    default = backend._build_dir(None)
    assert default.endswith(os.path.join("build", "pip-" +
                                         hlolayout_wheel.wheel_tag()[0]))
    monkeypatch.setenv("HLOLAYOUT_CMAKE_BUILD_DIR", "/tmp/from-env")
    assert backend._build_dir({}) == "/tmp/from-env"
    assert backend._build_dir({"build-dir": "/tmp/from-setting"}) == \
        "/tmp/from-setting"


def test_backend_reports_a_missing_tool(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(RuntimeError, match="cmake"):
        backend._run(["cmake", "--version"])


def test_sdist_carries_the_backend(tmp_path):
    name = backend.build_sdist(str(tmp_path))
    base = "hlolayout-%s" % hlolayout.__version__
    assert name == base + ".tar.gz"
    with tarfile.open(tmp_path / name) as tar:
        names = set(tar.getnames())
        info = tar.extractfile(base + "/PKG-INFO").read().decode()
    assert base + "/python/build_backend/hlolayout_build_backend.py" in names
    assert base + "/python/hlolayout/__init__.py" in names
    assert info == hlolayout_wheel.metadata_text()
