//go:build tools

// Package deps pins the project's third-party dependencies in go.mod while the packages
// that use them are being written. It is never built.
package deps

import (
	_ "github.com/apache/arrow-go/v18/arrow"
	_ "github.com/apache/arrow-go/v18/parquet/pqarrow"
	_ "github.com/gomlx/gomlx/backends/simplego"
	_ "github.com/gomlx/gomlx/pkg/ml/train"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/spf13/cobra"
	_ "github.com/stretchr/testify/require"
)
