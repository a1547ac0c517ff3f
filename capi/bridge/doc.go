// Package bridge is the logic behind the C ABI in capi/: handles for environments, vector
// environments and bots, options read from JSON, outputs written into caller-owned buffers,
// and every error (a panic included) turned into a code and a one-line message. It is plain
// Go with no cgo, so its tests run anywhere; capi/ only converts C pointers into the slices
// these functions take. No game logic lives here: it calls env, encoding, env/bots and
// env/rules.
package bridge
