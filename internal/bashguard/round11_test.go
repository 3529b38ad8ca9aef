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

// TestCargoConfigRunners: the programs cargo starts from its configuration
// (a target runner for run/test/bench, a rustc wrapper for builds), given by
// --config KEY=VALUE at any level or by CARGO_TARGET_<TRIPLE>_RUNNER,
// CARGO_BUILD_RUSTC_WRAPPER and RUSTC_WRAPPER, are judged as the commands
// they start (checked with cargo and a touch marker: the array form, the
// string form and the environment variable all ran; §9.2 programs that run
// a command from an option). Other configuration keys, a runner such as
// qemu and a wrapper such as sccache run nothing the policy blocks.
func TestCargoConfigRunners(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`cargo --config 'target.x86_64-unknown-linux-gnu.runner=["rm","-rf","build"]' run`: verdict.Block,
		`cargo run --config 'target."cfg(unix)".runner="rm -rf build"'`:                    verdict.Block,
		`CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER='rm -rf build' cargo test`:           verdict.Block,
		`RUSTC_WRAPPER=sudo cargo build`:                                                   verdict.Block,
		`cargo --config 'build.rustc-wrapper="git clean -fdx"' build`:                      verdict.Block,
		`cargo --config 'build.jobs=2' build`:                                              verdict.Allow,
		`cargo --config 'target.x86_64-unknown-linux-gnu.runner="qemu-x86_64"' run`:        verdict.Allow,
		`RUSTC_WRAPPER=sccache cargo build --release`:                                      verdict.Allow,
		`cargo --config .cargo/ci.toml test`:                                               verdict.Allow,
	})
}
