package shell

import "testing"

// TestComputedDirectories: $PWD, $OLDPWD, $(pwd), `pwd`, $(realpath X),
// $(readlink -f X) and $(cd X && pwd) are computed from the tracked
// directory, so a cd to them keeps the directory known (testdata/corpus/README.md §3.3:
// relative targets resolve against the directory the command runs in).
func TestComputedDirectories(t *testing.T) {
	cases := []struct {
		cmd, cwd, want string
		vars           map[string]string
	}{
		{`cd "$(realpath .harness)" && : > x`, "/r", "/r/.harness", nil},
		{`cd "$PWD/.harness" && : > x`, "/r", "/r/.harness", nil},
		{`cd "${PWD}/.harness" && : > x`, "/r", "/r/.harness", nil},
		{`cd "$(pwd)/.harness" && : > x`, "/r", "/r/.harness", nil},
		{"cd \"`pwd`/.harness\" && : > x", "/r", "/r/.harness", nil},
		{`cd /tmp && cd $OLDPWD/.harness && : > x`, "/r", "/r/.harness", nil},
		{`cd /tmp && cd - && : > x`, "/r", "", nil},
		{`cd "$(readlink -f .harness)" && : > x`, "/r", "/r/.harness", nil},
		{`cd "$(readlink -f a/../.harness)" && : > x`, "/r", "/r/.harness", nil},
		{`cd "$(cd .harness && pwd)" && : > x`, "/r", "/r/.harness", nil},
		{`cd sub && cd "$(pwd)/../.harness" && : > x`, "/r", "/r/.harness", nil},
		// without a known cwd the values are relative to the starting directory
		{`cd "$PWD/.harness" && : > x`, "", ".harness", nil},
		{`cd "$(realpath .harness)" && : > x`, "", ".harness", nil},
		// readlink without -f prints a link's text: unknown
		{`cd "$(readlink .harness)" && : > x`, "/r", DirUnknown, nil},
		// by the rows' grammar (coreutils 9.1): options after operands,
		// abbreviations; relative output and rejected options: unknown
		{`cd "$(readlink .harness -f)" && : > x`, "/r", "/r/.harness", nil},
		{`cd "$(readlink -n --canonicalize-e .harness)" && : > x`, "/r", "/r/.harness", nil},
		{`cd "$(realpath .harness --relative-to /)" && : > x`, "/r", DirUnknown, nil},
		{`cd "$(realpath --can .harness)" && : > x`, "/r", DirUnknown, nil},
		// tilde with a known HOME; `~/..` with HOME unknown is unknown, not "tmp/…"
		{`cd ~/../tmp/r/.harness && : > x`, "/r", "/tmp/r/.harness", map[string]string{"HOME": "/root"}},
		{`cd ~/../tmp/r/.harness && : > x`, "/r", DirUnknown, nil},
		{`cd ~/w && cd ../../x && : > x`, "/r", DirUnknown, nil},
		{`cd ~/w && : > x`, "/r", "~/w", nil},
		{`cd ~root/x && : > x`, "/r", DirUnknown, map[string]string{"HOME": "/root"}},
		{`cd "$T" && : > x`, "/r", DirUnknown, nil},
		{`pushd spec && popd && : > x`, "/r", "", nil},
		{`cd src && pushd /tmp && pushd /opt && popd && popd && : > x`, "/r", "src", nil},
		{`pushd /tmp && popd && popd && : > x`, "/r", DirUnknown, nil},
		{`pushd /tmp && popd +1 && : > x`, "/r", DirUnknown, nil},
	}
	// CDPATH makes a relative cd land anywhere on it
	r0 := Parse(`CDPATH=.harness; cd features && rm -r f001`, Options{Cwd: "/r"})
	if inv := r0.Invocations[len(r0.Invocations)-1]; inv.Dir != DirUnknown || inv.UnknownSub != "features" {
		t.Errorf("CDPATH: Dir %q UnknownSub %q", inv.Dir, inv.UnknownSub)
	}
	// relative cds below an unknown directory are kept
	r := Parse(`cd "$T" && cd .harness && cd features && : > x`, Options{Cwd: "/r"})
	if inv := r.Invocations[len(r.Invocations)-1]; inv.Dir != DirUnknown || inv.UnknownSub != ".harness/features" {
		t.Errorf("below an unknown directory: Dir %q UnknownSub %q", inv.Dir, inv.UnknownSub)
	}
	for _, tc := range cases {
		r := Parse(tc.cmd, Options{Cwd: tc.cwd, Vars: tc.vars})
		var got *Invocation
		for i := range r.Invocations {
			if len(r.Invocations[i].Redirects) > 0 {
				got = &r.Invocations[i]
			}
		}
		if got == nil {
			t.Fatalf("%s: no redirect found", tc.cmd)
		}
		if got.Dir != tc.want {
			t.Errorf("%s (cwd %q): Dir = %q, want %q", tc.cmd, tc.cwd, got.Dir, tc.want)
		}
	}
}

// TestRedirectTargetListing: a listing substituted into a redirection
// target is kept on the Redirect (testdata/corpus/README.md §3.3 Listings).
func TestRedirectTargetListing(t *testing.T) {
	for cmd, root := range map[string]string{
		`echo > $(ls .harness/feature_list.json)`:           ".harness/feature_list.json",
		`echo > "$(find .harness -name feature_list.json)"`: ".harness",
	} {
		inv := find(t, Parse(cmd, Options{}), "echo")
		l := inv.Redirects[0].Listing
		if l == nil || len(l.Roots) != 1 || l.Roots[0] != root {
			t.Errorf("%s: listing %+v, want root %s", cmd, l, root)
		}
	}
	inv := find(t, Parse(`echo hi > "$(mktemp)"`, Options{}), "echo")
	if inv.Redirects[0].Listing != nil {
		t.Errorf("mktemp is no listing: %+v", inv.Redirects[0].Listing)
	}
}
