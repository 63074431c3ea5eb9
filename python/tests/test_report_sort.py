"""sort= of hl.report and hl.memory: the keys of the CLI's --sort, from the
library (report/dump_folder.h, ParseSortKey and kSortKeyList), each giving
the CLI's order; aliases, bad keys, and sort where the CLI refuses it."""

import os
import re

import pytest

import hlolayout as hl
from conftest import _runfile

FOLDER_DEFAULTS = {"report": "buffers", "memory": "allocated"}


def _folder():
    return _runfile("memory/testdata")


def _module_files():
    folder = _folder()
    return sorted(os.path.join(folder, n) for n in os.listdir(folder)
                  if n.endswith("_after_optimizations.txt"))


def _key_list():
    """The library's kSortKeyList, as the ValueError of a bad key gives it."""
    with pytest.raises(ValueError) as caught:
        hl.report(_folder(), sort="bogus")
    match = re.fullmatch(r"sort must be (.*), got 'bogus'", str(caught.value))
    assert match, str(caught.value)
    return match.group(1)


def _keys():
    """Every key, aliases too: [["order", "file"], ["name", "module"], ...]."""
    listed = _key_list().replace(" or ", ", ").split(", ")
    return [entry.split("|") for entry in listed]


def _all_keys():
    return [name for names in _keys() for name in names]


def test_the_keys_are_the_clis():
    """The list Python gives is the one `hlolayout report --sort=bogus`
    prints, and each function's docstring lists it."""
    keys = _key_list()
    assert len(_all_keys()) >= 11
    assert ["order", "file"] in _keys() and ["name", "module"] in _keys()
    for doc in (hl.report.__doc__, hl.memory.__doc__):
        assert keys in " ".join(doc.split())


def test_cli_bad_key_message_lists_the_same_keys(cli):
    r = cli.run("report", "--sort=bogus", _folder())
    assert r.returncode == 2
    assert ("--sort must be %s, not 'bogus'" % _key_list()) in r.stderr


@pytest.mark.parametrize("command", ["report", "memory"])
def test_every_key_orders_a_folder_as_the_cli(cli, command):
    function = getattr(hl, command)
    folder = _folder()
    orders = set()
    for key in _all_keys():
        got = function(folder, sort=key)
        want = cli.json(command, "--json", "--sort=" + key, folder)
        assert got.to_dict() == want, key
        orders.add(tuple(r.module for r in got.modules))
    # The keys give different orders on this folder: sort= is not ignored.
    assert len(orders) >= 4
    # The default is unchanged, the CLI's default.
    default = function(folder)
    assert default.to_dict() == cli.json(command, "--json", folder)
    assert default == function(folder, sort=FOLDER_DEFAULTS[command])


@pytest.mark.parametrize("command", ["report", "memory"])
def test_folder_orders(command):
    function = getattr(hl, command)
    folder = _folder()
    by_name = [r.module for r in function(folder, sort="name").modules]
    assert by_name == sorted(by_name) and len(by_name) == 6
    by_file = [r.file for r in function(folder, sort="order").modules]
    assert by_file == sorted(by_file)
    rows = function(folder, sort="instructions").modules
    counts = [r.instructions for r in rows]
    assert counts == sorted(counts, reverse=True)
    assert counts != [r.instructions for r in function(folder).modules]
    rows = function(folder, sort="allocated").modules
    assert rows[0].module == "jit_mlp_step"
    assert [r.allocated_bytes for r in rows] == sorted(
        (r.allocated_bytes for r in rows), reverse=True)


@pytest.mark.parametrize("command", ["report", "memory"])
def test_aliases_give_the_same_table(command):
    function = getattr(hl, command)
    folder = _folder()
    for names in _keys():
        tables = [function(folder, sort=name) for name in names]
        assert all(t == tables[0] for t in tables), names


def test_every_key_orders_a_file_as_the_cli(cli):
    """`hlolayout report --sort=KEY FILE` orders each module's instructions
    or the modules: hl.report(text, sort=KEY) gives the same, for text of
    several modules (stdin for the CLI) and for a file."""
    text = "\n// -----\n".join(open(p).read() for p in _module_files())
    path = _module_files()[0]
    row_orders, module_orders = set(), set()
    for key in _all_keys():
        got = hl.report(text, sort=key)
        want = cli.json("report", "--json", "--sort=" + key, "-", input=text)
        assert got.to_dict() == want, key
        module_orders.add(tuple(m.name for m in got.modules))
        row_orders.add(tuple(r.instruction
                             for r in got.modules[0].instructions))
        assert hl.report(path, sort=key).to_dict() == cli.json(
            "report", "--json", "--sort=" + key, path), key
    assert len(module_orders) >= 3 and len(row_orders) >= 3
    assert hl.report(text).to_dict() == cli.json("report", "--json", "-",
                                                 input=text)
    assert hl.report(text) == hl.report(text, sort="order")


def test_file_orders():
    path = _module_files()[0]
    rows = hl.report(path, sort="padded").modules[0].instructions
    padded = [r.array_leaf_padded_bytes for r in rows]
    assert padded == sorted(padded, reverse=True)
    assert rows != hl.report(path).modules[0].instructions
    text = "\n// -----\n".join(open(p).read() for p in _module_files())
    modules = hl.report(text, sort="instructions", summary=True).modules
    counts = [m.totals.instructions for m in modules]
    assert counts == sorted(counts, reverse=True)


@pytest.mark.parametrize("key", ["allocated", "peak"])
def test_summary_refuses_keys_that_need_the_analysis(cli, key):
    path = _module_files()[0]
    with pytest.raises(ValueError, match="which summary=True leaves out"):
        hl.report(path, summary=True, sort=key)
    r = cli.run("report", "--summary", "--sort=" + key, path)
    assert r.returncode == 2 and "which --summary leaves out" in r.stderr
    # A folder's table is the summary: there the key applies.
    assert hl.report(_folder(), summary=True, sort=key).modules


def test_bad_keys():
    keys = re.escape(_key_list())
    for call in (lambda s: hl.report(_folder(), sort=s),
                 lambda s: hl.memory(_folder(), sort=s),
                 lambda s: hl.report(_module_files()[0], sort=s)):
        for bad in ("bogus", "", "Name", "buffers "):
            with pytest.raises(ValueError,
                               match="^sort must be %s, got '%s'$" % (
                                   keys, re.escape(bad))):
                call(bad)
        with pytest.raises(TypeError, match="sort must be a str, got int"):
            call(3)


def test_memory_refuses_sort_for_files(cli, tmp_path):
    """`hlolayout memory --sort=KEY FILE` is a usage error; hl.memory refuses
    sort= for a file, text, a list of files and a glob alike."""
    path = _module_files()[0]
    r = cli.run("memory", "--sort=peak", path)
    assert r.returncode == 2
    assert "--sort applies to a dump folder only" in r.stderr
    text = open(path).read()
    pattern = os.path.join(_folder(), "*after_optimizations.txt")
    for source in (path, text, [path], (path, path), pattern):
        for key in ("peak", "bogus"):
            with pytest.raises(ValueError,
                               match="^sort applies to a dump folder only"):
                hl.memory(source, sort=key)
    # Without sort= they answer as before.
    assert len(hl.memory(path)) == 1
    assert hl.memory(path, sort=None) == hl.memory(path)
