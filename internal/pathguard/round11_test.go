package pathguard

import "testing"

// TestBwrapMounts: bubblewrap's options are read by its row (most take one
// word; --bind, --ro-bind, --dev-bind, --symlink, --setenv … two), so
// their paths are neither a command nor paths handed to an unknown
// program, and the command starts after them. A read-write bind (--bind,
// --dev-bind, their -try forms) hands SRC to the command, which may write
// below it, as a container's read-write mount does (TestContainerBindMountsWrite;
// testdata/corpus/README.md §9.1); --ro-bind, --tmpfs, --dev and --proc
// change only the sandbox's view. --chdir DIR (and unshare's --wd=DIR)
// is the command's directory for that command only, as env -C is
// (Program.Chdir, TestEnvChdir). Round 11 kb0199: `bwrap --ro-bind / /
// --dev /dev --tmpfs /tmp ls /` was blocked as a write of `/`.
func TestBwrapMounts(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"bwrap --ro-bind / / --bind spec /spec true", "block"},
		{"bwrap --ro-bind / / --dev-bind ./templates /t sh -c 'touch /t/x.html'", "block"},
		{"bwrap --bind-try .harness/features/f001 /f true", "block"},
		{"bwrap --bind / / --chdir spec touch new.md", "block"},
		{"unshare --user --wd=templates touch x.html", "block"},
		{"bwrap --bind / / --chdir docs touch new.md", "allow"},
		{"bwrap --chdir spec true; touch new.md", "allow"}, // the shell stays at the root
		{"bwrap --ro-bind / / --dev /dev --tmpfs /tmp ls /", "allow"},
		{"bwrap --ro-bind spec /spec cat /spec/index.md", "allow"},
		{"bwrap --bind / / --dev /dev --proc /proc go test ./...", "allow"},
		{"bwrap --ro-bind / / --bind ./src /src --symlink usr/lib /lib make", "allow"},
		{"bwrap --ro-bind / / --tmpfs spec ls spec", "allow"},
	})
}
