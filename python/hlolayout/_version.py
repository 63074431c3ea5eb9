"""The package version.

Temporary: a constant until the repository's //:version (the packaging
work) is on main; then the wheel build will write it from there.
"""

__version__ = "0.3.0"
