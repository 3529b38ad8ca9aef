package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestVimExModifiersBeforeShell: an Ex command modifier (`:silent`,
// `:silent!`, `:sil`, `:keepalt`, `:noautocmd`, `:verbose`, `:unsilent`,
// `:sandbox`) in front of `!CMD` still runs CMD through the shell (checked
// with vim 9: `vim -Es +'silent !touch m' +qa` made m), in a -c value, a
// +CMD and a script line alike (testdata/corpus/README.md §9.2: programs
// that run a shell string). The same modifiers before another command
// are that command.
func TestVimExModifiersBeforeShell(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`vim -Es +'silent !git push -f origin main' +qa`: verdict.Block,
		`vim -es -c 'silent! !rm -rf build' -c q`:        verdict.Block,
		`vim -es -c 'sil !rm -rf build' -c q`:            verdict.Block,
		`vim -es -c ':noautocmd keepalt !rm -rf b' -c q`: verdict.Block,
		`ex -s '+verbose !rm -rf b' '+q!'`:               verdict.Block,
		`vim -Es +'silent !git status' +qa`:              verdict.Allow,
		`vim -es -c 'silent %s/a/b/g' -c wq notes.txt`:   verdict.Allow,
		`vim -es -c 'silent write' -c q notes.txt`:       verdict.Allow,
		`vim -es -c 'silentfoo !rm -rf b' -c q`:          verdict.Allow, // not a modifier: an unknown command
	})
}

// TestNpmExploreRunsItsCommand: `npm explore PKG -- CMD…` runs CMD in the
// package's directory (npm docs, "npm explore"; §9.1: a program that runs
// its arguments as a command); without "--" it opens an interactive shell.
func TestNpmExploreRunsItsCommand(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`npm explore lodash -- rm -rf node_modules`:     verdict.Block,
		`npm explore -w web lodash -- git push --force`: verdict.Block,
		`npm explore lodash -- ls -la`:                  verdict.Allow,
		`npm explore lodash -- npm run build`:           verdict.Allow,
		`npm explore --help`:                            verdict.Allow,
	})
}

// TestContainerDeviceJudgedByItsCommand: `docker|podman run --device DEV
// IMAGE CMD…` hands DEV to the container, and the container's command is
// judged on its own (testdata/corpus/README.md §2.1 containers, §2.4 disk:
// a read such as blkid is allowed, mkfs or a redirection onto the device
// is blocked). Without a command the image's own entrypoint gets the
// device, and the cautious reading stays.
func TestContainerDeviceJudgedByItsCommand(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`podman run --rm --device /dev/sdb alpine blkid /dev/sdb`:                verdict.Allow,
		`docker run --rm --device=/dev/sdb:/dev/xvdc alpine lsblk`:               verdict.Allow,
		`podman run --rm --device /dev/sdb alpine mkfs.ext4 /dev/sdb`:            verdict.Block,
		`docker run --rm --device /dev/sdb alpine sh -c 'cat os.img > /dev/sdb'`: verdict.Block,
		`docker run --rm --device /dev/sdb flasher/image`:                        verdict.Block,
	})
}

// TestCmdExeRunsItsLine: Windows' `cmd /c LINE` (and /k; `cmd //c` in
// Git Bash, where MSYS would turn /c into a path; /s /q /d before it) runs
// the rest of its line as a command line (testdata/corpus/README.md §9.1:
// a program that runs a command string). Without /c or /k it starts an
// interactive prompt.
func TestCmdExeRunsItsLine(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`cmd.exe /c "git push -f origin main"`: verdict.Block,
		`cmd //c "git reset --hard"`:           verdict.Block,
		`CMD.EXE /S /C "rm -rf build"`:         verdict.Block,
		`cmd /k git push --force`:              verdict.Block,
		`cmd.exe /c "git status"`:              verdict.Allow,
		`cmd //c dir /b`:                       verdict.Allow,
		`cmd.exe /c echo rm -rf build`:         verdict.Allow,
	})
}
