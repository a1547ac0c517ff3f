package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"unicode/utf8"
)

// readFileLimited reads path, refusing a file larger than limit bytes before reading it.
func readFileLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a file", path)
	} else if err == nil && st.Mode().IsRegular() && st.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes; the limit is %d", path, st.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: more than %d bytes", path, limit)
	}
	return data, nil
}

// readInput reads the input file path, or in when path is "-" (standard input), refusing
// more than limit bytes; name is what errors call the input ("standard input" for "-").
func readInput(path string, in io.Reader, limit int64) (name string, data []byte, err error) {
	if path != "-" {
		data, err = readFileLimited(path, limit)
		return path, data, err
	}
	if in == nil {
		in = os.Stdin
	}
	data, err = io.ReadAll(io.LimitReader(in, limit+1))
	if err != nil {
		return "standard input", nil, fmt.Errorf("standard input: %w", err)
	}
	if int64(len(data)) > limit {
		return "standard input", nil, fmt.Errorf("standard input: more than %d bytes", limit)
	}
	return "standard input", data, nil
}

// maxErrorBytes bounds the error line Main prints: every error quotes input through
// rules.Quote, and this is the backstop for text it does not control (a JSON decoder's
// "unknown field" with a huge name).
const maxErrorBytes = 1000

// shortError returns msg cut to maxErrorBytes, saying how long it was.
func shortError(msg string) string {
	if len(msg) <= maxErrorBytes {
		return msg
	}
	cut := maxErrorBytes
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "... (error of " + strconv.Itoa(len(msg)) + " bytes cut)"
}
