// Package prestack grows a goroutine's stack to its working size in one step,
// so that the hook process does not copy its stack again and again while it
// runs.
//
// A goroutine starts with an 8 KB stack; each time it runs out, the runtime
// allocates one twice as large and copies the old one, walking every frame
// with the PC tables (runtime.copystack). In a short harness-hook process
// that walk is the first to touch those tables, so each copy costs page
// faults: `perf record` of 300 PreToolUse Bash processes put 6.9% of the
// hook's CPU samples in copystack, mostly during the package inits of
// mvdan.cc/sh/v3 (regexp compilation) and the decision. Growing the stack
// once, while it holds one or two frames, costs one small copy
// (docs/performance.md).
//
// The package has no imports, so its init runs first of all non-runtime
// packages (Go ≥ 1.21 initialises ready packages in import-path order), and
// it has no other effect than the larger stack of the main goroutine.
package prestack

// frameBytes is the stack frame of grow: with the guard area the runtime
// rounds the 8 KB start stack up to 32 KB in one step, the most a
// PreToolUse Bash or Edit call needs (measured with debug.SetMaxStack).
const frameBytes = 24 << 10

func init() { Grow() }

// Grow makes the calling goroutine's stack 32 KB (at least frameBytes free)
// with one copy; a goroutine whose stack is already that large pays only the
// zeroing of the frame (a few µs). Call it first thing in a goroutine that
// runs a deep call tree (the hook's decision).
func Grow() {
	_ = grow(0)
}

// grow has a frameBytes frame that the compiler cannot drop: it is zeroed
// and read at an index it cannot know.
//
//go:noinline
func grow(i int) byte {
	var buf [frameBytes]byte
	return buf[i%len(buf)]
}
