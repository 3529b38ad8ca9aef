// Package lazy holds package-level values that are computed on first use
// and cost nothing at program start.
//
// A Value declared at package level with a function literal that captures
// nothing is static data: the compiler lays it out in the binary, and no
// init code runs and nothing is allocated before the first Get. The
// package-level map literals and sync.OnceValue calls it replaces run in
// their package's init: every harness-hook process paid them before main,
// whether or not the event needed the table (docs/performance.md,
// "PreToolUse Bash fixed cost, fifth pass").
package lazy

import "sync"

// Value is a value of type T computed by New on the first Get; later Gets
// return the same value. Declare it at package level as
//
//	var table = lazy.Value[map[string]bool]{New: func() map[string]bool { return … }}
//
// and read it with table.Get(). It is what sync.OnceValue(New) returns,
// without the allocation: safe for concurrent use, New runs at most once,
// and a panic in New is re-raised, with the same value, by that Get and
// every later one. A Value must not be copied after first use; New must
// not call Get of the same Value.
type Value[T any] struct {
	once sync.Once
	v    T
	p    any // New's panic value, if it panicked
	// New computes the value.
	New func() T
}

// Get returns the value, computing it on the first call.
func (l *Value[T]) Get() T {
	l.once.Do(l.init)
	if l.p != nil {
		panic(l.p)
	}
	return l.v
}

func (l *Value[T]) init() {
	defer func() {
		if p := recover(); p != nil {
			l.p = p
		}
	}()
	l.v = l.New()
}
