// Every test that imports TestSupport gets the rigs too (TestRigs: buses, servers, fixtures), which the
// benchmarks share without the fakes below.
@_exported import TestRigs
