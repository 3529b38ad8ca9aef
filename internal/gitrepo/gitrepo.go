// Package gitrepo reads the little of a git repository the harness needs
// outside the sandbox: where the git directory of a work tree is, which
// repositories the root repository's index holds as gitlinks
// (submodules), and whether such a nested repository carries settings or
// hooks that make a git run at the root execute code.
//
// Why (docs/sandbox.md §6, testdata/redteam/round9/README.md): harness
// launch keeps the root repository's .git/config and .git/hooks read-only,
// but a repository nested in the product tree is the Generator's to
// create. Once the root's index holds it as a gitlink, Hermes's `git
// status` or `git diff` at the root runs git inside it, outside the
// sandbox, with its core.fsmonitor, its hooks and its filters. The hook
// refuses every such write it can see (rule path.git-config); a program's
// write is not visible to it, so `harness status` and `harness doctor`
// look at the result: Hermes decides from what it reads here, never from
// what the Generator reports.
package gitrepo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/shell"
)

// MaxIndex bounds the index read (bytes); a larger index is reported as an
// error, never read in part.
const MaxIndex = 256 << 20

// maxConfig bounds one configuration file read (bytes).
const maxConfig = 1 << 20

// maxNested bounds how many gitlinks are looked into.
const maxNested = 10000

// maxDepth bounds how many levels of gitlinks below the root are looked
// into (a deeper one is reported as a problem, never skipped silently).
const maxDepth = 8

// Dir finds the git directory of the work tree that holds dir: the nearest
// .git at or above dir, a directory, or a regular file whose "gitdir:" line
// names one (relative to the file's directory). top is the directory that
// holds that .git (the work tree's top, which index paths are relative
// to). Both are "" when there is none or the .git entry is neither.
func Dir(dir string) (gitDir, top string) {
	for d := dir; ; d = filepath.Dir(d) {
		if g, ok := EntryGitDir(d); ok {
			if g == "" {
				return "", ""
			}
			return g, d
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// EntryGitDir reads the .git entry of directory d as git does (a link is
// followed): ok is false when there is none; g is the directory itself, or
// the one a regular file's "gitdir:" line names (relative to d), or ""
// when the entry is neither (then git finds no repository in d). The file
// read is bounded (4 KiB).
func EntryGitDir(d string) (g string, ok bool) {
	p := filepath.Join(d, ".git")
	st, err := os.Stat(p)
	if err != nil {
		return "", false
	}
	if st.IsDir() {
		return p, true
	}
	if !st.Mode().IsRegular() {
		return "", true
	}
	b, err := fsutil.ReadRegular(p, 4096)
	if err != nil {
		return "", true
	}
	s, found := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !found {
		return "", true
	}
	s = strings.TrimSpace(s)
	if !filepath.IsAbs(s) {
		s = filepath.Join(d, s)
	}
	return filepath.Clean(s), true
}

// ErrIndexFormat reports an index this package cannot read (bad signature,
// an unknown version, a truncated entry).
var ErrIndexFormat = errors.New("unreadable git index")

// Gitlinks returns the paths (slash-separated, relative to the work tree's
// top) of the index entries of gitDir whose mode is a gitlink (0160000),
// sorted. A missing index is no gitlink (nil, nil). It reads index
// versions 2, 3 and 4 (gitformat-index(5)) with SHA-1 or SHA-256 object
// names (hashSize 20 or 32, from extensions.objectFormat). Errors:
// ErrIndexFormat (wrapped), fsutil's TooLargeError beyond MaxIndex, or the
// read's own error.
func Gitlinks(gitDir string) ([]string, error) {
	b, err := fsutil.ReadRegular(filepath.Join(gitDir, "index"), MaxIndex)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	hashSize := 20
	if cfg, err := fsutil.ReadRegular(filepath.Join(gitDir, "config"), maxConfig); err == nil {
		if f, _ := shell.GitConfigValue(string(cfg), "extensions.objectformat"); strings.EqualFold(f, "sha256") {
			hashSize = 32
		}
	}
	return parseGitlinks(b, hashSize)
}

func parseGitlinks(b []byte, hashSize int) ([]string, error) {
	bad := func(what string) error { return fmt.Errorf("%w: %s", ErrIndexFormat, what) }
	if len(b) < 12 || string(b[:4]) != "DIRC" {
		return nil, bad("no DIRC signature")
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version < 2 || version > 4 {
		return nil, bad(fmt.Sprintf("version %d", version))
	}
	n := binary.BigEndian.Uint32(b[8:12])
	fixed := 40 + hashSize + 2 // ctime mtime dev ino mode uid gid size, name, flags
	off := 12
	var prev []byte
	var out []string
	for i := uint32(0); i < n; i++ {
		if off+fixed > len(b) {
			return nil, bad("truncated entry")
		}
		mode := binary.BigEndian.Uint32(b[off+24 : off+28])
		flags := binary.BigEndian.Uint16(b[off+40+hashSize : off+fixed])
		p := off + fixed
		if version >= 3 && flags&0x4000 != 0 {
			p += 2
		}
		if p > len(b) {
			return nil, bad("truncated entry")
		}
		var name []byte
		if version == 4 {
			strip, used := offsetVarint(b[p:])
			if used == 0 || strip > len(prev) {
				return nil, bad("bad path prefix")
			}
			p += used
			end := bytes.IndexByte(b[p:], 0)
			if end < 0 {
				return nil, bad("unterminated path")
			}
			name = append(append([]byte{}, prev[:len(prev)-strip]...), b[p:p+end]...)
			off = p + end + 1
		} else {
			end := bytes.IndexByte(b[p:], 0)
			if end < 0 {
				return nil, bad("unterminated path")
			}
			name = b[p : p+end]
			// entries are padded with 1–8 NULs to a multiple of 8 bytes
			off += (p - off + end + 8) &^ 7
		}
		prev = name
		if mode&0o170000 == 0o160000 {
			out = append(out, string(name))
		}
	}
	sort.Strings(out)
	return out, nil
}

// offsetVarint decodes git's offset encoding (varint.c): it returns the
// value and the bytes used, 0 when b ends first.
func offsetVarint(b []byte) (int, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := int(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || v > 1<<40 {
			return 0, 0
		}
		c = b[i]
		i++
		v = ((v + 1) << 7) + int(c&127)
	}
	return v, i
}

// Nested is a repository the root's index holds as a gitlink whose git
// directory makes git runs execute code.
type Nested struct {
	// Path is the gitlink's path relative to the root repository's top.
	Path string `json:"path"`
	// GitDir is the nested repository's git directory ("" when the gitlink
	// has no checked-out repository).
	GitDir string `json:"git_dir,omitempty"`
	// Settings are its "key=value" settings that run code or move where
	// git finds hooks and settings (shell.GitConfigRunners).
	Settings []string `json:"settings,omitempty"`
	// Hooks are the names of the files in its hooks directory git would
	// run (every name but the *.sample files git init writes).
	Hooks []string `json:"hooks,omitempty"`
	// Problem names what could not be read (then Settings and Hooks may be
	// incomplete: the caller treats it as a finding, never as clean).
	Problem string `json:"problem,omitempty"`
}

// Risky returns the nested repositories of the work tree holding root
// whose configuration or hooks make a git run in them execute code (see
// the package comment), sorted by path, or an error when the root's index
// cannot be read. A root outside any repository has none. Its cost is one
// index read plus, per gitlink, one .git entry, one config, one hooks
// directory listing and that repository's own index: it reads no other
// part of the tree.
//
// A gitlink's repository is looked into too, and so on down (maxDepth
// levels): git status at the root runs git status in each checked-out
// submodule, which does the same in its own submodules, so a second-level
// repository's core.fsmonitor ran outside the sandbox while only the
// first level was read (round 16, testdata/redteam/round16/README.md:
// `git init --template=T src/sub/inner`, `git -C src/sub add inner`, `git
// add src/sub`). A nested repository whose own index cannot be read is
// named with that problem.
func Risky(root string) ([]Nested, error) {
	gd, top := Dir(root)
	if gd == "" {
		return nil, nil
	}
	links, err := Gitlinks(gd)
	if err != nil {
		return nil, err
	}
	var out []Nested
	seen := len(links)
	var walk func(top, prefix string, links []string, depth int) error
	walk = func(top, prefix string, links []string, depth int) error {
		for _, l := range links {
			dir := filepath.Join(top, filepath.FromSlash(l))
			n := inspect(dir)
			n.Path = prefix + l
			var below []string
			if n.GitDir != "" && n.Problem == "" {
				sub, err := Gitlinks(n.GitDir)
				switch {
				case err != nil && !errors.Is(err, os.ErrNotExist):
					n.Problem = "index: " + err.Error()
				case len(sub) > 0 && depth >= maxDepth:
					n.Problem = fmt.Sprintf("gitlinks nested more than %d levels deep", maxDepth)
				default:
					below = sub
				}
			}
			if len(n.Settings) > 0 || len(n.Hooks) > 0 || n.Problem != "" {
				out = append(out, n)
			}
			if seen += len(below); seen > maxNested {
				return fmt.Errorf("more than %d gitlinks below %s, more than the %d looked into", maxNested, filepath.Join(gd, "index"), maxNested)
			}
			if err := walk(dir, n.Path+"/", below, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if seen > maxNested {
		return nil, fmt.Errorf("%d gitlinks in %s, more than the %d looked into", len(links), filepath.Join(gd, "index"), maxNested)
	}
	if err := walk(top, "", links, 1); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// inspect reads the git directory of the repository checked out at dir.
func inspect(dir string) Nested {
	g, ok := EntryGitDir(dir)
	if !ok {
		return Nested{} // not checked out: git runs nothing there
	}
	if g == "" {
		return Nested{Problem: filepath.Join(dir, ".git") + " is neither a directory nor a gitdir file"}
	}
	n := Nested{GitDir: g}
	cfg, err := fsutil.ReadRegular(filepath.Join(g, "config"), maxConfig)
	switch {
	case err == nil:
		n.Settings = shell.GitConfigRunners(string(cfg))
	case !errors.Is(err, os.ErrNotExist):
		n.Problem = "config: " + err.Error()
	}
	for _, extra := range []string{"config.worktree", "commondir"} {
		if _, err := os.Lstat(filepath.Join(g, extra)); err == nil {
			n.Settings = append(n.Settings, extra+" (a file that adds settings or moves where git reads them)")
		}
	}
	ents, err := os.ReadDir(filepath.Join(g, "hooks"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		if n.Problem != "" {
			n.Problem += "; "
		}
		n.Problem += "hooks: " + err.Error()
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".sample") {
			n.Hooks = append(n.Hooks, e.Name())
		}
	}
	return n
}

// Describe is one line for a person: which repository, what it runs, and
// what to do.
func (n Nested) Describe() string {
	var what []string
	if len(n.Settings) > 0 {
		what = append(what, "settings "+strings.Join(n.Settings, ", "))
	}
	if len(n.Hooks) > 0 {
		what = append(what, "hooks "+strings.Join(n.Hooks, ", "))
	}
	if n.Problem != "" {
		what = append(what, "unreadable ("+n.Problem+")")
	}
	return fmt.Sprintf("the nested repository %s (a gitlink of the root repository) has %s: a git status or git diff at the root runs git inside it, outside the sandbox, and executes them; read them before any git command at the root, or pass --ignore-submodules=all (docs/sandbox.md §6)", n.Path, strings.Join(what, "; "))
}
