package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestAwkProgramFile: an awk program given by -f FILE is read like make's
// -f (scriptSource): stdin through /dev/stdin, /dev/fd/0 or "-" (checked
// with mawk 1.3.4: `awk -f - <<<'BEGIN{system("touch m")}'` made m), a
// process substitution, or a file written earlier in the command; its
// system() and pipes run (testdata/corpus/README.md §9.2 awk system(),
// scripts read from stdin). A program file that only prints, and a file
// the guard cannot read, run nothing it can see.
func TestAwkProgramFile(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`awk -f /dev/stdin <<<'BEGIN{system("rm -rf build")}'`:                                 verdict.Block,
		`gawk -f - <<<'BEGIN{system("git reset --hard")}'`:                                     verdict.Block,
		`awk -f <(echo 'BEGIN{system("rm -rf build")}') notes.txt`:                             verdict.Block,
		`printf 'BEGIN{print "x" | "sh"; system("rm -rf b")}' > /tmp/p.awk; awk -f /tmp/p.awk`: verdict.Block,
		`awk -f /dev/fd/0 data.txt <<'EOF'` + "\n" + `{ "git push -f" | getline r }` + "\nEOF": verdict.Block,
		`awk -f /dev/stdin notes.txt <<<'{print $1}'`:                                          verdict.Allow,
		`echo 'rm -rf x' | awk -f /dev/stdin`:                                                  verdict.Allow, // the text is awk code, not a command
		`awk -f scripts/report.awk data.csv`:                                                   verdict.Allow,
		`printf '{print NR}' > /tmp/n.awk; awk -f /tmp/n.awk data.csv`:                         verdict.Allow,
	})
}

// TestBwrapRunsItsCommand: bubblewrap's options take one word or, for the
// mounts, --symlink, --setenv and --chmod, two (--overlay three), so the
// command is found after them and their values are data (its row in the
// program table; testdata/corpus/README.md §9.1 names `bwrap --bind / / rm
// -rf x` among the wrappers).
func TestBwrapRunsItsCommand(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`bwrap --dev-bind / / rm -rf build`:                                    verdict.Block,
		`bwrap --ro-bind / / --bind "$PWD" "$PWD" --dev /dev git reset --hard`: verdict.Block,
		`bwrap --ro-bind /usr /usr --symlink usr/lib /lib sudo id`:             verdict.Block,
		`bwrap --overlay rw wk /x --unshare-net sh -c 'git clean -fdx'`:        verdict.Block,
		`bwrap --ro-bind / / --dev /dev --tmpfs /tmp ls /`:                     verdict.Allow,
		`bwrap --ro-bind / / --setenv MSG 'rm -rf y' make test`:                verdict.Allow,
		`bwrap --bind / / --chdir build ls`:                                    verdict.Allow,
	})
}
