// Package version holds the toolkit's version: the one number that `container --version`
// prints, that datasets, bot files and results files record as their tool version, and that
// the Python package (python/pyproject.toml) declares. A test keeps pyproject.toml in step;
// change the number here and there together.
package version

// Version is the toolkit's version (semantic versioning).
const Version = "0.3.0"
