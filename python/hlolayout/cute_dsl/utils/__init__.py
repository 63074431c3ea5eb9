"""The twin of `cutlass.utils`: the shared-memory layout helpers of the
Hopper (sm90) and Blackwell (sm100) GEMMs."""
