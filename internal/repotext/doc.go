// Package repotext holds checks on the repository's own text (docs, comments, test names,
// help strings): it has no code of its own, only its tests, which read the tracked files.
package repotext
