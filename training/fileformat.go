package training

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/strictjson"
)

// ErrCorrupt is wrapped by every error for a bot or checkpoint file that is truncated,
// malformed or inconsistent.
var ErrCorrupt = errors.New("training: corrupt file")

// File layout shared by bot files and checkpoints (all integers little-endian):
//
//	magic        8 bytes ("CNTRBOT1" or "CNTRCKP1")
//	header size  uint32, at most maxHeaderBytes
//	header       JSON; its "tensors" list names every tensor with dtype and shape
//	tensor data  each tensor's elements in header order, row-major, no padding
//	checksum     uint32 CRC-32 (IEEE) of everything before it
const (
	maxHeaderBytes = 4 << 20
	// maxDataBytes bounds the tensor data of any file (bots are far smaller).
	maxDataBytes = 2 << 30
)

// tensorInfo describes one stored tensor.
type tensorInfo struct {
	Name  string `json:"name"`
	DType string `json:"dtype"` // "float32", "float64", "int64" or "int32"
	Shape []int  `json:"shape"`
}

func dtypeSize(dt string) int {
	switch dt {
	case "float32", "int32":
		return 4
	case "float64", "int64":
		return 8
	}
	return 0
}

// byteSize checks the tensor description and returns its data size in bytes.
func (t tensorInfo) byteSize() (int64, error) {
	es := dtypeSize(t.DType)
	if es == 0 {
		return 0, fmt.Errorf("%w: tensor %s has unknown dtype %s", ErrCorrupt, rules.Quote(t.Name), rules.Quote(t.DType))
	}
	if len(t.Shape) > 8 {
		return 0, fmt.Errorf("%w: tensor %s has %d dimensions", ErrCorrupt, rules.Quote(t.Name), len(t.Shape))
	}
	n := int64(es)
	for _, d := range t.Shape {
		if d < 0 || d > maxDataBytes {
			return 0, fmt.Errorf("%w: tensor %s has dimension %d", ErrCorrupt, rules.Quote(t.Name), d)
		}
		n *= int64(d)
		if n > maxDataBytes {
			return 0, fmt.Errorf("%w: tensor %s is larger than %d bytes", ErrCorrupt, rules.Quote(t.Name), maxDataBytes)
		}
	}
	return n, nil
}

// rawTensor is one tensor's description and little-endian bytes.
type rawTensor struct {
	info tensorInfo
	data []byte
}

func float32Bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func bytesFloat32(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// writeContainer writes magic, header (with the tensor list filled in by the caller) and data.
func writeContainer(w io.Writer, magic string, header any, tensors []rawTensor) error {
	hdr, err := json.Marshal(header)
	if err != nil {
		return fmt.Errorf("training: encode header: %w", err)
	}
	if len(hdr) > maxHeaderBytes {
		return fmt.Errorf("training: header of %d bytes is too large", len(hdr))
	}
	crc := crc32.NewIEEE()
	mw := io.MultiWriter(w, crc)
	var buf [4]byte
	binary.LittleEndian.PutUint32(buf[:], uint32(len(hdr)))
	for _, b := range [][]byte{[]byte(magic), buf[:], hdr} {
		if _, err := mw.Write(b); err != nil {
			return fmt.Errorf("training: write: %w", err)
		}
	}
	for _, t := range tensors {
		if _, err := mw.Write(t.data); err != nil {
			return fmt.Errorf("training: write: %w", err)
		}
	}
	binary.LittleEndian.PutUint32(buf[:], crc.Sum32())
	if _, err := w.Write(buf[:]); err != nil {
		return fmt.Errorf("training: write: %w", err)
	}
	return nil
}

// readHeader reads the preamble and the JSON header of a file written by writeContainer into
// header, and nothing after them: the tensors and the checksum are left unread and unchecked.
func readHeader(r io.Reader, magic string, header any) error {
	var pre [12]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return fmt.Errorf("%w: reading the preamble: %v", ErrCorrupt, err)
	}
	if string(pre[:8]) != magic {
		return fmt.Errorf("%w: bad magic %q (want %q)", ErrCorrupt, pre[:8], magic)
	}
	n := binary.LittleEndian.Uint32(pre[8:])
	if n > maxHeaderBytes {
		return fmt.Errorf("%w: header size %d is over the limit %d", ErrCorrupt, n, maxHeaderBytes)
	}
	hdr, err := readAtMost(r, int64(n))
	if err != nil {
		return err
	}
	if err := strictjson.Decode(hdr, header); err != nil {
		return fmt.Errorf("%w: header: %v", ErrCorrupt, err)
	}
	return nil
}

// readContainer reads a file written by writeContainer. header must be a pointer to a struct
// with a Tensors []tensorInfo field returned by tensorsOf. Memory use is bounded by the
// bytes actually present in the input, never by sizes the header claims.
func readContainer(r io.Reader, magic string, header any, tensorsOf func() []tensorInfo) ([]rawTensor, error) {
	crc := crc32.NewIEEE()
	tr := io.TeeReader(r, crc)
	if err := readHeader(tr, magic, header); err != nil {
		return nil, err
	}
	infos := tensorsOf()
	if len(infos) > 4096 {
		return nil, fmt.Errorf("%w: %d tensors", ErrCorrupt, len(infos))
	}
	var total int64
	for _, t := range infos {
		sz, err := t.byteSize()
		if err != nil {
			return nil, err
		}
		total += sz
		if total > maxDataBytes {
			return nil, fmt.Errorf("%w: tensor data larger than %d bytes", ErrCorrupt, maxDataBytes)
		}
	}
	out := make([]rawTensor, len(infos))
	for i, t := range infos {
		sz, _ := t.byteSize()
		data, err := readAtMost(tr, sz)
		if err != nil {
			return nil, fmt.Errorf("%w (tensor %s)", err, rules.Quote(t.Name))
		}
		out[i] = rawTensor{info: t, data: data}
	}
	want := crc.Sum32()
	var sum [4]byte
	if _, err := io.ReadFull(r, sum[:]); err != nil {
		return nil, fmt.Errorf("%w: reading the checksum: %v", ErrCorrupt, err)
	}
	if got := binary.LittleEndian.Uint32(sum[:]); got != want {
		return nil, fmt.Errorf("%w: checksum %08x, computed %08x", ErrCorrupt, got, want)
	}
	var extra [1]byte
	if k, _ := io.ReadFull(r, extra[:]); k != 0 {
		return nil, fmt.Errorf("%w: trailing bytes after the checksum", ErrCorrupt)
	}
	return out, nil
}

// readAtMost reads exactly n bytes, growing the buffer only as data arrives.
func readAtMost(r io.Reader, n int64) ([]byte, error) {
	var buf bytes.Buffer
	if n < 1<<20 {
		buf.Grow(int(n))
	}
	k, err := io.Copy(&buf, io.LimitReader(r, n))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if k != n {
		return nil, fmt.Errorf("%w: truncated: %d of %d bytes", ErrCorrupt, k, n)
	}
	return buf.Bytes(), nil
}
