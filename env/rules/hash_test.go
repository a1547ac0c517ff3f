package rules

import (
	"reflect"
	"testing"
)

// Every position field takes part in the hash: changing any single field (every element of
// every array, every machine field) changes Hash; copies and clones hash the same. Presses is
// the one deliberate exception: it is left out so that checksums of records written before it
// existed still verify.
func TestHashCoversEveryField(t *testing.T) {
	g, _ := NewGame(Options{Players: 5, Modules: AllModules})
	s := g.NewInitialStateSeed(3)
	base := s.Hash()
	if s.Clone().Hash() != base {
		t.Fatal("clone hashes differently")
	}
	leaves := 0
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				f := v.Type().Field(i)
				if v.Type() == reflect.TypeFor[State]() && (f.Name == "game" || f.Name == "history" || f.Name == "Presses") {
					continue
				}
				walk(v.Field(i), path+"."+f.Name)
			}
		case reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), path+"[]")
			}
		default:
			leaves++
			p := v.Addr().UnsafePointer()
			b := (*byte)(p)
			*b ^= 1
			if s.Hash() == base {
				t.Errorf("field %s does not change the hash", path)
			}
			*b ^= 1
		}
	}
	walk(reflect.ValueOf(s).Elem(), "State")
	s.Presses++
	if s.Hash() != base {
		t.Error("Presses changes the hash: every record checksum written before it existed breaks")
	}
	s.Presses--
	if s.Hash() != base || leaves < 300 {
		t.Fatalf("walk restored the state? %d leaves", leaves)
	}
}
