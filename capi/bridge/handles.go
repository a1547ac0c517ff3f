package bridge

import (
	"fmt"
	"sync"
)

// The handle table: every object the C caller holds is an int64 key here, so no Go pointer
// ever crosses the boundary. Handle 0 is never issued.
var (
	handleMu sync.RWMutex
	handles  = map[int64]any{}
	nextH    int64
)

// busy guards an object against use from two host threads at once.
type busy struct{ mu sync.Mutex }

func (b *busy) enter(kind string, h int64) error {
	if !b.mu.TryLock() {
		return fmt.Errorf("%w: %s %d is in use by another thread", ErrHandle, kind, h)
	}
	return nil
}

func (b *busy) leave() { b.mu.Unlock() }

func put(v any) int64 {
	handleMu.Lock()
	defer handleMu.Unlock()
	nextH++
	handles[nextH] = v
	return nextH
}

func get[T any](h int64, kind string) (T, error) {
	handleMu.RLock()
	v, ok := handles[h]
	handleMu.RUnlock()
	t, isT := v.(T)
	if !ok || !isT {
		var zero T
		return zero, fmt.Errorf("%w: no open %s with handle %d (closed already?)", ErrHandle, kind, h)
	}
	return t, nil
}

// closer is an object that releases resources when its handle is freed.
type closer interface{ close() }

// Free releases handle h (any kind). Freeing an unknown handle is an error, so a double free
// is reported instead of silently freeing somebody else's object.
func Free(h int64) error {
	handleMu.Lock()
	v, ok := handles[h]
	delete(handles, h)
	handleMu.Unlock()
	if !ok {
		return fmt.Errorf("%w: no open object with handle %d (closed already?)", ErrHandle, h)
	}
	if c, ok := v.(closer); ok {
		c.close()
	}
	return nil
}

// Open counts the open handles (tests use it to find leaks).
func Open() int {
	handleMu.RLock()
	defer handleMu.RUnlock()
	return len(handles)
}
