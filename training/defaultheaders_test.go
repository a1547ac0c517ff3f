package training

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/models"
)

// TestDefaultHeadersAreThoseOfTheFullFiles: the headers read at start-up (without the weights)
// are the headers of the fully read and checked files, in the same order, so the description
// of the "default" bot says what DefaultBots would load.
func TestDefaultHeadersAreThoseOfTheFullFiles(t *testing.T) {
	hs, err := defaultHeaders()
	if err != nil {
		t.Fatal(err)
	}
	files, err := DefaultBots()
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != len(files) {
		t.Fatalf("%d headers, %d files", len(hs), len(files))
	}
	for i := range hs {
		if !reflect.DeepEqual(hs[i], files[i].Header) {
			t.Errorf("header %d differs from the full file's", i)
		}
	}
	if hs[0].Rules.Players != 4 || hs[0].Rules.Modules != 0 {
		t.Errorf("first header is for %s, want default.bot (base 4 players)", describeOptions(hs[0].Rules))
	}
	info, ok := bots.Lookup(bots.DefaultName)
	if !ok {
		t.Fatalf("%q is not registered", bots.DefaultName)
	}
	full := make([]BotHeader, len(files))
	for i, f := range files {
		full[i] = f.Header
	}
	if want := describeModels(full); !strings.HasSuffix(info.Description, want) {
		t.Errorf("description %q does not end with %q", info.Description, want)
	}
}

// TestReadHeaderRejectsBadInput: a header read stops with ErrCorrupt on a wrong magic, a
// truncated preamble or header, or a header that is not the expected JSON: an unknown key, a
// key spelt in other capitals, a key twice, or anything after the header's object.
func TestReadHeaderRejectsBadInput(t *testing.T) {
	good, err := models.ReadFile("default.bot")
	if err != nil {
		t.Fatal(err)
	}
	var h BotHeader
	if err := readHeader(bytes.NewReader(good), botMagic, &h); err != nil {
		t.Fatalf("the embedded default.bot: %v", err)
	}
	bad := map[string][]byte{
		"empty":           nil,
		"short preamble":  good[:10],
		"wrong magic":     append([]byte("NOTABOT!"), good[8:]...),
		"truncated JSON":  good[:40],
		"not JSON":        append(append([]byte{}, good[:12]...), bytes.Repeat([]byte("x"), 1<<12)...),
		"unknown field":   headerBytes(`{"no_such_field":1}`),
		"key in capitals": headerBytes(`{"NAME":"x"}`),
		"key twice":       headerBytes(`{"name":"x","name":"y"}`),
		"data after":      headerBytes(`{"name":"x"} {}`),
		"oversize header": append([]byte(botMagic), 0xff, 0xff, 0xff, 0xff),
	}
	for name, b := range bad {
		var h BotHeader
		if err := readHeader(bytes.NewReader(b), botMagic, &h); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
	}
}

// headerBytes is a preamble and json as the header.
func headerBytes(json string) []byte {
	b := []byte(botMagic)
	n := len(json)
	b = append(b, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
	return append(b, json...)
}
