package training

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Edge cases of the bot and checkpoint container format
// (fileformat.go; the mutation records in docs/results/ name the bug each one catches): every size limit is inclusive, and the reader's memory
// is bounded by the bytes actually present.

const testMagic = "CNTRTST1"

type testContainerHeader struct {
	Name    string       `json:"name"`
	Tensors []tensorInfo `json:"tensors"`
}

// writeTest writes a container of the tensors (zero-filled data of each declared size).
func writeTest(t *testing.T, name string, infos []tensorInfo) ([]byte, error) {
	t.Helper()
	h := testContainerHeader{Name: name, Tensors: infos}
	var raws []rawTensor
	for _, ti := range infos {
		sz, err := ti.byteSize()
		if err != nil {
			t.Fatalf("tensor %v: %v", ti, err)
		}
		raws = append(raws, rawTensor{info: ti, data: make([]byte, sz)})
	}
	var buf bytes.Buffer
	err := writeContainer(&buf, testMagic, &h, raws)
	return buf.Bytes(), err
}

func readTest(data []byte) (*testContainerHeader, []rawTensor, error) {
	var h testContainerHeader
	raws, err := readContainer(bytes.NewReader(data), testMagic, &h, func() []tensorInfo { return h.Tensors })
	return &h, raws, err
}

// fakeFile is a container whose header declares the tensors but which carries no data.
func fakeFile(t *testing.T, infos []tensorInfo) []byte {
	t.Helper()
	hdr, err := json.Marshal(testContainerHeader{Tensors: infos})
	if err != nil {
		t.Fatal(err)
	}
	out := []byte(testMagic)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(hdr)))
	return append(out, hdr...)
}

func f32(name string, shape ...int) tensorInfo {
	return tensorInfo{Name: name, DType: "float32", Shape: shape}
}

// Tensors of 8 dimensions, empty tensors and an empty tensor with a dimension at the limit
// round-trip; 9 dimensions or a dimension over the limit are refused as corrupt.
func TestContainerTensorShapeLimitsAreInclusive(t *testing.T) {
	for _, ti := range []tensorInfo{
		f32("eight", 1, 1, 1, 1, 1, 1, 1, 2),
		f32("empty", 0),
		f32("empty2", 3, 0),
		f32("emptywide", 0, maxDataBytes),
	} {
		data, err := writeTest(t, "x", []tensorInfo{ti, f32("after", 2)})
		if err != nil {
			t.Fatal(err)
		}
		h, raws, err := readTest(data)
		if err != nil {
			t.Errorf("tensor %v: %v", ti, err)
			continue
		}
		if len(raws) != 2 || !slices.Equal(h.Tensors[0].Shape, ti.Shape) || len(raws[1].data) != 8 {
			t.Errorf("tensor %v: read back %v", ti, h.Tensors)
		}
	}
	for _, ti := range []tensorInfo{
		f32("nine", 1, 1, 1, 1, 1, 1, 1, 1, 1),
		f32("negative", 2, -1),
		f32("wide", 0, maxDataBytes+1),
	} {
		if _, _, err := readTest(fakeFile(t, []tensorInfo{ti})); !errors.Is(err, ErrCorrupt) {
			t.Errorf("tensor %v: err %v, want ErrCorrupt", ti, err)
		}
	}
}

// A file declaring exactly the data limit (one tensor, or two halves) is within the limits:
// without its data it is reported truncated; one element more is reported too large.
func TestContainerDataLimitIsInclusive(t *testing.T) {
	for _, c := range []struct {
		infos []tensorInfo
		want  string
	}{
		{[]tensorInfo{f32("all", maxDataBytes/4)}, "truncated"},
		{[]tensorInfo{f32("half", maxDataBytes/8), f32("other", maxDataBytes/8)}, "truncated"},
		{[]tensorInfo{f32("all", maxDataBytes/4+1)}, "larger than"},
		{[]tensorInfo{f32("half", maxDataBytes/8), f32("other", maxDataBytes/8+1)}, "larger than"},
	} {
		_, _, err := readTest(fakeFile(t, c.infos))
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err %v, want ErrCorrupt saying %q", c.infos, err, c.want)
		}
	}
}

// A header of exactly maxHeaderBytes is written and read back; one byte more is refused by
// the writer, and a preamble declaring it is refused by the reader.
func TestContainerHeaderLimitIsInclusive(t *testing.T) {
	base, err := json.Marshal(testContainerHeader{Tensors: []tensorInfo{f32("w", 2)}})
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("x", maxHeaderBytes-len(base))
	data, err := writeTest(t, name, []tensorInfo{f32("w", 2)})
	if err != nil {
		t.Fatalf("header of exactly %d bytes: %v", maxHeaderBytes, err)
	}
	if got := binary.LittleEndian.Uint32(data[8:]); got != maxHeaderBytes {
		t.Fatalf("header of %d bytes, the test wants %d", got, maxHeaderBytes)
	}
	if h, _, err := readTest(data); err != nil || h.Name != name {
		t.Fatalf("reading a header of exactly %d bytes: %v", maxHeaderBytes, err)
	}
	if _, err := writeTest(t, name+"x", []tensorInfo{f32("w", 2)}); err == nil {
		t.Fatalf("a header of %d bytes was written", maxHeaderBytes+1)
	}
	over := binary.LittleEndian.AppendUint32([]byte(testMagic), maxHeaderBytes+1)
	over = append(over, bytes.Repeat([]byte(" "), maxHeaderBytes+1)...)
	if _, _, err := readTest(over); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "over the limit") {
		t.Fatalf("a declared header of %d bytes: %v", maxHeaderBytes+1, err)
	}
}

// A file with 4096 tensors is read back; 4097 are refused as corrupt.
func TestContainerTensorCountLimitIsInclusive(t *testing.T) {
	infos := make([]tensorInfo, 4097)
	for i := range infos {
		infos[i] = f32("t", 1)
	}
	data, err := writeTest(t, "many", infos[:4096])
	if err != nil {
		t.Fatal(err)
	}
	if _, raws, err := readTest(data); err != nil || len(raws) != 4096 {
		t.Fatalf("4096 tensors: %d read, err %v", len(raws), err)
	}
	data, err = writeTest(t, "too many", infos)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := readTest(data); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("4097 tensors: err %v, want ErrCorrupt", err)
	}
}

// Reading a file whose header declares 256 MiB of tensor data but which carries none
// allocates about what the file holds, not what it claims (a hostile or cut file cannot
// make the reader reserve memory).
func TestContainerReaderMemoryIsBoundedByTheBytesPresent(t *testing.T) {
	data := fakeFile(t, []tensorInfo{f32("huge", 64<<20)})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := readTest(data)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("err %v, want ErrCorrupt", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Fatalf("reading a %d-byte file allocated %d bytes", len(data), got)
	}
}
