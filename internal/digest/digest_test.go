package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// TestSum256 compares Sum256 with crypto/sha256 on every length up to 300
// bytes (all padding cases) and on random inputs up to 64 KB.
func TestSum256(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(b []byte) {
		if got, want := Sum256(b), sha256.Sum256(b); got != want {
			t.Fatalf("Sum256(%d bytes) = %x, want %x", len(b), got, want)
		}
	}
	for n := 0; n <= 300; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		check(b)
	}
	for i := 0; i < 50; i++ {
		b := make([]byte, rng.IntN(64<<10))
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		check(b)
	}
	d := Sum256([]byte("abc"))
	if got, want := Hex(d, 32), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"; got != want {
		t.Errorf("Hex = %s, want %s", got, want)
	}
	if Hex(d, 8) != hex.EncodeToString(d[:8]) {
		t.Errorf("Hex(d, 8) = %s", Hex(d, 8))
	}
}
