"""The old name of `hlolayout.memory_usage`, where `hl.memory` lives (issue
85 renamed the module so that a newcomer finds it): imports from here and
pickles that name it keep working.

    >>> from hlolayout.allocations import ModuleMemory, memory
    >>> memory is hl.memory and ModuleMemory is hl.ModuleMemory
    True
"""

from .memory_usage import *  # noqa: F401,F403
from .memory_usage import __all__  # noqa: F401
