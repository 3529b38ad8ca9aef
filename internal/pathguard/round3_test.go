package pathguard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestRound3PathChannels: own spellings of the round-3 path gaps
// (testdata/redteam/round3): find's -follow is -L, cd searches CDPATH,
// ssh-keygen -f writes its key files, a server listening on a path plants
// a Unix socket.
func TestRound3PathChannels(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	if err := os.Symlink("../spec", filepath.Join(root, "research", "sp")); err != nil {
		t.Fatal(err)
	}
	checkBashCases(t, g, root, []bashCase{
		{"find research -type f -follow -delete", "block"},
		{"find -P research -name '*.md' -follow -delete", "block"},
		{"find research -type f -delete", "allow"},
		{"export CDPATH=/tmp:..; cd research; cd schemas && touch x.json", "block"},
		{"cd src && CDPATH=.. cd spec && echo x > new.md", "block"},
		{"CDPATH=.. cd ./src && touch new.go", "allow"},
		{"CDPATH=.. cd src && touch new.go", "allow"},
		{"ssh-keygen -t rsa -b 4096 -N '' -f schemas/id_rsa", "block"},
		{"ssh-keygen -p -N new -f spec/key", "block"},
		{"ssh-keygen -lf schemas/id.pub", "allow"},
		{"ssh-keygen -t ed25519 -N '' -f build/deploy_key", "allow"},
		{"node -e 'require(\"http\").createServer(h).listen(\".harness/web.sock\")'", "block"},
		{"node -e 'require(\"net\").createServer().listen(8080)'", "allow"},
		{"node -e 'require(\"net\").createServer().listen(\"build/dev.sock\")'", "allow"},
	})
}

// TestTclWrites: Tcl code (tclsh/wish/jimsh stdin, expect -c) writes what
// its commands write: open for writing or appending, exec redirections,
// file copy/rename/mkdir/delete/link; reading stays allowed.
func TestTclWrites(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{`tclsh <<< 'set f [open SKILL.md w]; puts $f hacked; close $f'`, "block"},
		{`echo 'exec echo x >> spec/index.md' | tclsh`, "block"},
		{`expect -c 'file copy -force /tmp/a.json schemas/a.json'`, "block"},
		{`tclsh <<< 'file rename templates research/t'`, "block"},
		{`tclsh <<< 'file delete .harness/feature_list.json'`, "block"},
		{`tclsh <<< 'set f [open SKILL.md]; puts [read $f]; close $f'`, "allow"},
		{`tclsh <<< 'set f [open build/out.txt w]; puts $f ok'`, "allow"},
		{`tclsh <<< 'exec cat spec/index.md > build/copy.md'`, "allow"},
	})
}

// bashCase is one command and the verdict a test wants for it: "block" or
// "allow".
type bashCase struct{ cmd, want string }

// checkBashCases decides each case's command in root (no variables) and
// reports every case whose verdict is not the one it wants.
func checkBashCases(t *testing.T, g *Guard, root string, cases []bashCase) {
	t.Helper()
	for _, c := range cases {
		d := bashDecide(g, c.cmd, root, nil)
		got := "allow"
		if d.Action == verdict.Block {
			got = "block"
		}
		if got != c.want {
			t.Errorf("%q: %s (%s), want %s", c.cmd, got, d.Rule, c.want)
		}
	}
}
