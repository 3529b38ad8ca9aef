// Package binid recognises the installed harness binaries by what the file
// is, not by its name (testdata/corpus/README.md §9.1 "Program identity";
// docs/protocol.md §14.5 harness_admin): a hard link, symlink, copy or
// rename of `harness` or `harness-hook` is that program, so the hook's
// harness_admin rules judge `$TMPDIR/hx allow …` like `harness allow …`.
//
// The installed binaries are the running harness-hook (os.Executable, as
// the hook wiring names it) and the `harness` CLI installed next to it
// (install.sh puts both in one directory) or first on the hook's PATH. A
// file is one of them when it is the same file (device and inode, or the
// platform's equivalent: os.SameFile after following links) or a regular
// file of the same size and the same bytes (a copy). Nothing is looked up
// until the first question, and each answer is cached for the process.
package binid

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// Names of the harness binaries (shell.HarnessCLI, shell.HarnessHook).
const (
	CLI  = "harness"
	Hook = "harness-hook"
)

// maxCompare bounds the bytes compared for a same-size candidate: a
// harness binary is tens of MB; a larger file is not one.
const maxCompare = 512 << 20

type binary struct {
	name string
	path string
	info os.FileInfo
}

// Set answers which harness binary a file is. The zero value knows none.
type Set struct {
	exe     func() (string, error)
	pathEnv string
	self    string // CLI or Hook: what exe is ("" = by its name; NewAs)
	once    sync.Once
	bins    []binary
	mu      sync.Mutex
	answers map[string]answer
}

// New returns the set of the installed binaries: hookExe locates the
// running binary (the hook passes os.Executable; nil: none) — harness-hook,
// or harness when its name says so (`harness explain`) — pathEnv
// is the hook's PATH (the harness CLI is looked up there when it is not
// next to the hook, and bare command names are resolved with it).
func New(hookExe func() (string, error), pathEnv string) *Set {
	return &Set{exe: hookExe, pathEnv: pathEnv}
}

// NewAs is New for a running binary that knows which harness binary it
// is (self: CLI or Hook), whatever its file is called: `harness explain`
// run as a renamed copy still finds harness-hook next to it and judges
// copies of itself as harness.
func NewAs(self string, exe func() (string, error), pathEnv string) *Set {
	return &Set{exe: exe, pathEnv: pathEnv, self: self}
}

// Of returns a set of the given files (name → path), for tests and tools
// that know where the binaries are.
func Of(files map[string]string, pathEnv string) *Set {
	s := &Set{pathEnv: pathEnv}
	s.once.Do(func() {
		for _, n := range []string{CLI, Hook} {
			if p, ok := files[n]; ok {
				s.add(n, p)
			}
		}
	})
	return s
}

func (s *Set) add(name, p string) {
	if p == "" || !filepath.IsAbs(p) {
		return
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	for _, b := range s.bins {
		if os.SameFile(b.info, fi) {
			return
		}
	}
	s.bins = append(s.bins, binary{name: name, path: p, info: fi})
}

func (s *Set) load() {
	s.once.Do(func() {
		if s.exe == nil {
			return
		}
		hook, err := s.exe()
		if err != nil || hook == "" {
			return
		}
		if r, err := filepath.EvalSymlinks(hook); err == nil {
			hook = r
		}
		// the hook passes harness-hook; `harness explain` passes harness
		self, other := Hook, CLI
		if s.self == CLI || s.self == "" && strings.EqualFold(strings.TrimSuffix(filepath.Base(hook), ".exe"), CLI) {
			self, other = CLI, Hook
		}
		s.add(self, hook)
		s.add(other, filepath.Join(filepath.Dir(hook), other+exeSuffix()))
		if p := lookPath(CLI, filepath.SplitList(s.pathEnv)); p != "" {
			s.add(CLI, p)
		}
	})
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// lookPath finds name in dirs the way a shell does: the first regular
// executable file dir/name ("" when none; relative dirs are skipped).
func lookPath(name string, dirs []string) string {
	for _, d := range dirs {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		for _, n := range []string{name, name + exeSuffix()} {
			p := filepath.Join(d, n)
			fi, err := os.Stat(p)
			if err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0) {
				return p
			}
			if exeSuffix() == "" {
				break
			}
		}
	}
	return ""
}

// Identify is shell.Options.Identify: which harness binary file is (CLI,
// Hook, or "" for neither), and whether such a file exists. file is an
// absolute path, or a bare command name looked up in dirs (nil: the
// hook's PATH).
func (s *Set) Identify(file string, dirs []string) (string, bool) {
	if s == nil || file == "" {
		return "", false
	}
	if !filepath.IsAbs(file) {
		if strings.ContainsAny(file, `/\`) {
			return "", false
		}
		if dirs == nil {
			dirs = filepath.SplitList(s.pathEnv)
		}
		if file = lookPath(file, dirs); file == "" {
			return "", false
		}
	}
	s.mu.Lock()
	a, ok := s.answers[file]
	s.mu.Unlock()
	if ok {
		return a.id, a.found
	}
	a.id, a.found = s.identify(file)
	s.mu.Lock()
	if s.answers == nil {
		s.answers = map[string]answer{}
	}
	s.answers[file] = a
	s.mu.Unlock()
	return a.id, a.found
}

type answer struct {
	id    string
	found bool
}

func (s *Set) identify(file string) (string, bool) {
	fi, err := os.Stat(file)
	if err != nil {
		return "", false
	}
	if !fi.Mode().IsRegular() {
		return "", true
	}
	s.load()
	for _, b := range s.bins {
		if os.SameFile(b.info, fi) {
			return b.name, true
		}
	}
	for _, b := range s.bins {
		if b.info.Size() == fi.Size() && fi.Size() <= maxCompare && sameContent(b.path, file) {
			return b.name, true
		}
	}
	return "", true
}

// sameContent reports whether the files a and b hold the same bytes.
func sameContent(a, b string) bool {
	fa, err := os.Open(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	ba, bb := make([]byte, 256<<10), make([]byte, 256<<10)
	for {
		na, ea := io.ReadFull(fa, ba)
		nb, eb := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false
		}
		if ea != nil || eb != nil {
			return (ea == io.EOF || ea == io.ErrUnexpectedEOF) && (eb == io.EOF || eb == io.ErrUnexpectedEOF)
		}
	}
}
