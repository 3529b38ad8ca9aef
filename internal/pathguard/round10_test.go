package pathguard

import "testing"

// TestRound10WritersByMode: writers whose target is a directory named by
// a mode (testdata/corpus/README.md §3.3, §9.1): cpio -p (pass-through)
// copies the listed files below its directory operand, while -i and -o
// write the current directory or stdout; git read-tree -u --prefix=DIR/
// checks the tree out below DIR, and without -u it changes only the index.
func TestRound10WritersByMode(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"find . -name '*.html' | cpio -pdm templates", "block"},
		{"ls docs/*.md | cpio --pass-through --make-directories spec/guides", "block"},
		{"find . -name '*.html' | cpio -pdm research/html", "allow"},
		{"find src | cpio -o > /tmp/src.cpio", "allow"},
		{"cpio -t < /tmp/src.cpio", "allow"},
		{"git read-tree --prefix=templates/vendor/ -u vendor/main", "block"},
		{"git read-tree -u --prefix spec/imported/ upstream/docs", "block"},
		{"git read-tree --prefix=research/vendor/ -u vendor/main", "allow"},
		{"git read-tree --prefix=templates/vendor/ vendor/main", "allow"},
	})
}

// TestContainerBindMountsWrite: a host directory bind-mounted read-write
// into a container (`docker|podman run -v HOST:CTR`, `--volume`, `--mount
// type=bind,src=HOST,…`) is handed to a program that may write below it
// (testdata/corpus/README.md §9.1): a protected directory so mounted is
// judged as written below. A read-only mount (`:ro`, `readonly`), a named
// volume and an ordinary directory (the root itself, src/) are allowed.
func TestContainerBindMountsWrite(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{`docker run --rm -v "$PWD/spec:/spec" alpine sh -c 'echo x > /spec/index.md'`, "block"},
		{"podman run --rm -v ./templates:/t:Z alpine touch /t/new.html", "block"},
		{"docker run --rm --volume=./schemas:/s alpine true", "block"},
		{"docker run --rm --mount type=bind,src=./spec,dst=/spec alpine true", "block"},
		{"docker container run --rm -v ./.harness/features/f001:/f alpine true", "block"},
		{`docker run --rm -v "$PWD/spec:/spec:ro" alpine cat /spec/index.md`, "allow"},
		{"docker run --rm --mount type=bind,src=./spec,dst=/spec,readonly alpine true", "allow"},
		{"docker run --rm --mount type=volume,src=spec,dst=/spec alpine true", "allow"},
		{"docker run --rm -v spec:/spec alpine true", "allow"},
		{`docker run --rm -v "$PWD:/w" -w /w golang:1.22 go build ./...`, "allow"},
		{"docker run --rm -v ./src:/src alpine true", "allow"},
		{"docker run --rm -v /tmp/cache:/cache alpine true", "allow"},
	})
}

// TestEnvChdir: env -C DIR / --chdir=DIR (GNU coreutils 8.28+) runs the
// command in DIR, so its relative targets resolve there, like a cd that
// lasts for that command only (checked with coreutils 9.1: env -C d touch
// m made d/m). The directory is not changed for the commands after it.
func TestEnvChdir(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"env -C templates touch new.html", "block"},
		{"env --chdir=schemas rm feature_list.schema.json", "block"},
		{"env -i -C spec/guides sh -c 'echo x > a.md'", "block"},
		{"env --chd templates tee x.html < /dev/null", "block"},
		{"env -C research touch new.md", "allow"},
		{"env -C templates cat index.html", "allow"},
		{"env -C spec true; touch new.md", "allow"},
		{"env -C /tmp touch templates.html", "allow"},
	})
}
