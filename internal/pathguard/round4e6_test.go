package pathguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestTableOutputs: own spellings of the round-4 path gaps
// (testdata/redteam/round4) in programs whose outputs the program table
// names (shell.WriteSpec): media converters' last operand, install roots
// and target directories, submodule paths, checkout-index files, sqlite3's
// database and dot-command outputs, openssl/wget/curl output options.
func TestTableOutputs(t *testing.T) {
	root := newWorkspace(t)
	g, err := New(root, "f002")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ cmd, want string }{
		{"ffmpeg -loglevel error -i clip.mov -vf scale=320:-1 spec/clip.webm", "block"},
		{"sox in.wav -r 16000 templates/out.wav", "block"},
		{"cargo build --release --target-dir schemas/t", "block"},
		{"cargo install --path tools/x --root=templates", "block"},
		{"git submodule add -b main https://example.com/y.git spec/y", "block"},
		{"git checkout-index -f SKILL.md README.md", "block"},
		{"git checkout-index --prefix=spec/ -a", "block"},
		{"sqlite3 x.db '.once spec/dump.sql' 'select 1'", "block"},
		{"sqlite3 x.db <<< '.output templates/t.csv'", "block"},
		{"openssl req -new -key k.pem -out spec/req.csr", "block"},
		{"openssl genrsa -out schemas/k.pem 2048", "block"},

		{"ffmpeg -i spec/clip.mov -f null -", "allow"},
		{"ffmpeg -i spec/in.mp4 build/out.gif", "allow"},
		{"sox spec/in.wav -n stat", "allow"},
		{"cargo install --root build/tools rg", "allow"},
		{"cargo build --release", "allow"},
		{"git submodule add https://example.com/y.git vendor/y", "allow"},
		{"git checkout-index -f src/main.go", "allow"},
		{"sqlite3 build/x.db '.once build/d.sql' 'select 1'", "allow"},
		{"openssl dgst -sha256 spec/index.md", "allow"},
		{"openssl x509 -in spec/cert.pem -noout -text", "allow"},
	} {
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
