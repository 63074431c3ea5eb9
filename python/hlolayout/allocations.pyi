# Type stubs of hlolayout.allocations, the old name of hlolayout.memory_usage.
from .memory_usage import *
