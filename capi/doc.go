// Command capi is the C ABI of the toolkit, built as a shared library for the Python package
// in python/ (and any other host that speaks C):
//
//	go build -buildmode=c-shared -o python/container_rl/libcontainer.so ./capi
//
// (pip install ./python does that through python/setup.py and installs the package). It is thin: every exported function
// converts its C arguments into Go slices and strings and calls package bridge, which holds
// the logic, the handle table and the error codes; no Go pointer crosses the boundary (the
// caller gets int64 handles) and no panic does either (bridge.Guard turns one into an error
// code). Outputs go into caller-owned buffers; a vector environment keeps writing into the
// buffers it was made with, which the caller must keep alive until it frees the handle.
//
// Every function returns 0 or an error code (bridge.Code*) and writes the one-line message
// into the caller's err buffer (errcap bytes, NUL-terminated, truncated if need be).
// Functions that return text write it into out (cap bytes); when out is too small they
// return bridge.CodeBufferSmall and store the size needed in *need.
//
// python/container_rl/_lib.py declares every export for ctypes (argument and result types),
// the status entries, the error codes and bridge.ABIVersion; python/tests/test_lib.py reads
// this package's //export lines and bridge's constants and fails on any difference, so a
// change here is made there too (python/README.md, "Adding an adapter").
package main

// main is required by -buildmode=c-shared and never runs in the library.
func main() {}
