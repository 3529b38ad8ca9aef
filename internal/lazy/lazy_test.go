package lazy

import (
	"sync"
	"sync/atomic"
	"testing"
)

var calls atomic.Int32

// table is declared the way the packages declare theirs: at package level,
// with a function literal that captures nothing.
var table = Value[map[string]bool]{New: func() map[string]bool {
	calls.Add(1)
	return map[string]bool{"a": true}
}}

func TestValueComputedOnceUnderConcurrentGets(t *testing.T) {
	if n := calls.Load(); n != 0 {
		t.Fatalf("New ran %d times before the first Get", n)
	}
	var wg sync.WaitGroup
	got := make([]map[string]bool, 16)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = table.Get()
		}()
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Fatalf("New ran %d times, want 1", n)
	}
	for i, m := range got {
		if !m["a"] || len(m) != 1 {
			t.Fatalf("Get %d returned %v", i, m)
		}
	}
	got[0]["b"] = true // the same map every time
	if !table.Get()["b"] {
		t.Fatal("a later Get returned another map")
	}
}

func TestValuePanicIsRaisedByEveryGet(t *testing.T) {
	n := 0
	v := Value[int]{New: func() int { n++; panic("boom") }}
	for i := range 3 {
		func() {
			defer func() {
				if p := recover(); p != "boom" {
					t.Fatalf("Get %d: recovered %v, want boom", i, p)
				}
			}()
			v.Get()
			t.Fatalf("Get %d returned", i)
		}()
	}
	if n != 1 {
		t.Fatalf("New ran %d times, want 1", n)
	}
	// sync.OnceValue has the same contract
	o := sync.OnceValue(func() int { panic("boom") })
	for range 2 {
		func() {
			defer func() {
				if p := recover(); p != "boom" {
					t.Fatalf("sync.OnceValue: recovered %v", p)
				}
			}()
			o()
		}()
	}
}

func TestGetAfterFirstDoesNotAllocate(t *testing.T) {
	table.Get()
	if a := testing.AllocsPerRun(100, func() { _ = table.Get() }); a != 0 {
		t.Fatalf("Get allocates %v times per call", a)
	}
}
