"""Helpers the capability modules share: threads, paths or text."""

import os as _os

from . import _hlolayout as _core


def _threads(threads):
    """The thread count of a call: one per core (at most 8) for None."""
    if threads is None:
        return _core.default_threads()
    threads = int(threads)
    if threads < 1:
        raise ValueError("threads must be >= 1")
    return threads


def _sort_name(sort, default):
    """The --sort key of a call (`default` for None). The library checks
    the name: its ValueError lists the keys (kSortKeyList)."""
    if sort is None:
        return default
    if not isinstance(sort, str):
        raise TypeError("sort must be a str, got %s" % type(sort).__name__)
    return sort


def _text_and_name(path_or_text):
    """(text, file name) of a path, or (text, "") of HLO text."""
    if isinstance(path_or_text, _os.PathLike):
        path_or_text = _os.fspath(path_or_text)
    if isinstance(path_or_text, bytes):
        path_or_text = path_or_text.decode("utf-8")
    if not isinstance(path_or_text, str):
        raise TypeError("expected a path or HLO text, got %s" %
                        type(path_or_text).__name__)
    if path_or_text and "\n" not in path_or_text and "{" not in path_or_text:
        with open(path_or_text, encoding="utf-8") as f:
            return f.read(), path_or_text
    return path_or_text, ""


def _path_or_text(path_or_text):
    """(path, None) for an existing file or folder, else (None, HLO text).

    A path is read by the library, which maps the file: its text is not
    read into Python first. FileNotFoundError for a path that does not
    exist (text holds a newline or a brace; a path has neither).
    """
    if isinstance(path_or_text, _os.PathLike):
        return _os.fspath(path_or_text), None
    if isinstance(path_or_text, bytes):
        path_or_text = path_or_text.decode("utf-8")
    if not isinstance(path_or_text, str):
        raise TypeError("expected a path or HLO text, got %s" %
                        type(path_or_text).__name__)
    if path_or_text and "\n" not in path_or_text and "{" not in path_or_text:
        if not _os.path.exists(path_or_text):
            raise FileNotFoundError(path_or_text)
        return path_or_text, None
    return None, path_or_text
