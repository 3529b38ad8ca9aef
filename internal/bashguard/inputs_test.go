package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// Own spellings of round 4's last two Bash gaps (ub0056, ub0100) and their
// allow neighbours; none is a listed case.

// TestNamedDescriptors: `exec {NAME}<…` opens a descriptor whose number the
// shell stores in NAME (bash: the lowest free one from 10), so a shell
// reading it (`<&$NAME`, /dev/fd/$NAME) runs its literal content.
func TestNamedDescriptors(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"exec {in}<<<'rm -rf build'; sh <&$in":                               verdict.Block,
		"exec {src}< <(printf 'git push -f origin main'); bash <&\"${src}\"": verdict.Block,
		"exec {a}<<<'ls' {b}<<<'rm -rf dist'; bash /dev/fd/$b":               verdict.Block,
		"exec {fd}<<'EOF'\nrm -rf out\nEOF\nbash -s <&$fd":                   verdict.Block,
		"exec {a}<<<'ls' {b}<<<'rm -rf dist'; bash /dev/fd/$a":               verdict.Allow,
		"exec {in}<<<'rm -rf build'; cat <&$in":                              verdict.Allow,
		"exec {in}< <(echo 'go test ./...'); bash <&$in":                     verdict.Allow,
		"exec {log}>>/tmp/run.log; echo 'rm -rf build' >&$log":               verdict.Allow,
	})
}

// TestAwkRecords: an awk program's records are the literal text on its
// stdin, so $0 and a bare print carry it into system() and into a pipe to
// a command (`print | "sh"`); in BEGIN no record is read yet, and input
// files make the records unknown.
func TestAwkRecords(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"printf 'rm -rf build' | awk '{ system($0) }'":           verdict.Block,
		"echo 'rm -rf out' | gawk '{ cmd = $0; system(cmd) }'":   verdict.Block,
		"awk '{ print $0 | \"bash\" }' <<< 'git push --force'":   verdict.Block,
		"printf 'rm -rf dist\\n' | mawk '{ print | \"sh -s\" }'": verdict.Block,
		"printf 'rm -rf build' | awk '{ print | \"cat\" }'":      verdict.Allow,
		"echo 'rm -rf out' | awk 'BEGIN { system($0) }'":         verdict.Allow,
		"printf 'rm -rf build' | awk '{ system($0) }' list.txt":  verdict.Allow,
		"printf 'ls -la' | awk '{ print | \"sh\" }'":             verdict.Allow,
		"printf 'rm -rf build' | awk '{ print $0 }'":             verdict.Allow,
	})
}
