// Package skill is the Hermes skill that ships with harness
// (skills/harness-sprint/, embedded in the binary): its front matter in the
// Agent Skills format, and installing it where Hermes Agent
// (<hermes home>/skills/<category>/<name>/) and Claude Code
// (<claude config dir>/skills/<name>/) load skills from.
//
// The front matter rules are those of the Agent Skills specification
// (agentskills.io): name 1–64 lowercase letters, digits and single hyphens,
// equal to the folder name; description 1–1024 characters; optional license,
// compatibility (≤ 500 characters), metadata (a map of strings) and
// allowed-tools; plus the version Hermes Agent reads.
package skill

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/fsutil"
)

// Name is the skill's name and folder.
const Name = "harness-sprint"

// Category is the Hermes Agent skill category folder it installs under.
const Category = "software-development"

// FrontMatter is the YAML block that opens SKILL.md.
type FrontMatter struct {
	Name          string            `yaml:"name"`
	Description   string            `yaml:"description"`
	Version       string            `yaml:"version"`
	License       string            `yaml:"license"`
	Compatibility string            `yaml:"compatibility"`
	Metadata      map[string]string `yaml:"metadata"`
	AllowedTools  string            `yaml:"allowed-tools"`
}

// allowedKeys are the front matter fields of the specification plus version.
var allowedKeys = map[string]bool{"name": true, "description": true, "license": true, "compatibility": true,
	"metadata": true, "allowed-tools": true, "version": true}

var reName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

var reSemver = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)

// Parse splits a SKILL.md into its front matter and body and checks the front
// matter against the format's rules for a skill in folder dir (the base name
// is compared with name). The error lists every broken rule.
func Parse(skillMD []byte, dir string) (FrontMatter, []byte, error) {
	var fm FrontMatter
	rest, ok := bytes.CutPrefix(skillMD, []byte("---\n"))
	if !ok {
		return fm, nil, errors.New("SKILL.md does not start with a '---' front matter line")
	}
	head, body, ok := bytes.Cut(rest, []byte("\n---\n"))
	if !ok {
		return fm, nil, errors.New("SKILL.md front matter has no closing '---' line")
	}
	var raw map[string]any
	if err := yaml.Unmarshal(head, &raw); err != nil {
		return fm, nil, fmt.Errorf("SKILL.md front matter: %v", err)
	}
	var problems []string
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !allowedKeys[k] {
			problems = append(problems, fmt.Sprintf("unknown field %q", k))
		}
	}
	if m, ok := raw["metadata"]; ok {
		mm, isMap := m.(map[string]any)
		if !isMap {
			problems = append(problems, "metadata is not a map")
		}
		for k, v := range mm {
			if _, isStr := v.(string); !isStr {
				problems = append(problems, fmt.Sprintf("metadata.%s is not a string", k))
			}
		}
	}
	for _, k := range []string{"name", "description", "version", "license", "compatibility", "allowed-tools"} {
		if v, ok := raw[k]; ok {
			if _, isStr := v.(string); !isStr {
				problems = append(problems, fmt.Sprintf("%s is not a string", k))
			}
		}
	}
	if len(problems) == 0 {
		if err := yaml.Unmarshal(head, &fm); err != nil {
			return fm, nil, fmt.Errorf("SKILL.md front matter: %v", err)
		}
	}
	problems = append(problems, fm.check(filepath.Base(dir))...)
	if len(problems) > 0 {
		return fm, body, fmt.Errorf("SKILL.md front matter: %s", strings.Join(problems, "; "))
	}
	return fm, body, nil
}

func (fm FrontMatter) check(dir string) []string {
	var p []string
	n := utf8.RuneCountInString
	switch {
	case fm.Name == "":
		p = append(p, "name is missing")
	case n(fm.Name) > 64 || !reName.MatchString(fm.Name):
		p = append(p, fmt.Sprintf("name %q must be 1-64 lowercase letters, digits and single hyphens", fm.Name))
	case dir != "" && fm.Name != dir:
		p = append(p, fmt.Sprintf("name %q differs from its folder %q", fm.Name, dir))
	}
	if strings.TrimSpace(fm.Description) == "" || n(fm.Description) > 1024 {
		p = append(p, fmt.Sprintf("description must be 1-1024 characters (has %d)", n(fm.Description)))
	}
	if n(fm.Compatibility) > 500 {
		p = append(p, fmt.Sprintf("compatibility must be at most 500 characters (has %d)", n(fm.Compatibility)))
	}
	if !reSemver.MatchString(fm.Version) {
		p = append(p, fmt.Sprintf("version %q is not MAJOR.MINOR.PATCH", fm.Version))
	}
	return p
}

// Embedded returns the shipped skill folder (skills/harness-sprint of the
// embedded assets) as a file system rooted at the folder.
func Embedded() fs.FS {
	sub, err := fs.Sub(harness.Assets(), path.Join("skills", Name))
	if err != nil {
		panic(err) // the embed pattern guarantees the folder
	}
	return sub
}

// Files returns every file of the skill folder fsys, by slash path.
func Files(fsys fs.FS) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		out[p] = b
		return nil
	})
	return out, err
}

// Version is the version in the front matter of the embedded SKILL.md.
func Version() (string, error) {
	b, err := fs.ReadFile(Embedded(), "SKILL.md")
	if err != nil {
		return "", err
	}
	fm, _, err := Parse(b, Name)
	return fm.Version, err
}

// HermesDir is where Hermes Agent loads the skill from: <home>/skills/<category>/<name>.
func HermesDir(hermesHome string) string {
	return filepath.Join(hermesHome, "skills", Category, Name)
}

// ClaudeDir is the user skill folder of Claude Code: <config dir>/skills/<name>
// (the config dir is $CLAUDE_CONFIG_DIR, else ~/.claude).
func ClaudeDir(claudeConfigDir string) string {
	return filepath.Join(claudeConfigDir, "skills", Name)
}

// Result is what Install did in one folder.
type Result struct {
	Dir string `json:"dir"`
	// Written are the files created or replaced, Unchanged those already
	// equal to the shipped ones (slash paths relative to Dir).
	Written   []string `json:"written"`
	Unchanged []string `json:"unchanged"`
	// Removed are files of an earlier version of the skill the shipped one no
	// longer has (listed in the folder's .harness-skill manifest).
	Removed []string `json:"removed"`
	Version string   `json:"version"`
}

// manifest names the files an install wrote, so a later install removes
// only files of its own earlier version, never a file the user added.
const manifest = ".harness-skill"

// Install writes the embedded skill into dir: each file atomically, only when
// it differs (so a second install changes nothing), and removes the files an
// earlier install wrote that the skill no longer has.
func Install(dir string) (Result, error) {
	res := Result{Dir: dir, Written: []string{}, Unchanged: []string{}, Removed: []string{}}
	files, err := Files(Embedded())
	if err != nil {
		return res, err
	}
	if res.Version, err = Version(); err != nil {
		return res, err
	}
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, files[p]) {
			res.Unchanged = append(res.Unchanged, p)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return res, err
		}
		if err := fsutil.WriteFileAtomic(dst, files[p], 0o644); err != nil {
			return res, err
		}
		res.Written = append(res.Written, p)
	}
	if old, err := os.ReadFile(filepath.Join(dir, manifest)); err == nil {
		for _, p := range strings.Split(strings.TrimSpace(string(old)), "\n") {
			if _, still := files[p]; p == "" || still || !fs.ValidPath(p) {
				continue
			}
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err == nil {
				res.Removed = append(res.Removed, p)
			}
		}
	}
	list := []byte(strings.Join(names, "\n") + "\n")
	if old, err := os.ReadFile(filepath.Join(dir, manifest)); err != nil || !bytes.Equal(old, list) {
		if err := fsutil.WriteFileAtomic(filepath.Join(dir, manifest), list, 0o644); err != nil {
			return res, err
		}
	}
	return res, nil
}

// State of an installed copy compared with the shipped skill.
type State struct {
	Dir string `json:"dir"`
	// Status is "missing" (no SKILL.md), "current" (every shipped file is
	// there and equal) or "outdated" (a file differs or is missing).
	Status string `json:"status"`
	// Installed is the installed SKILL.md's version, Shipped the embedded one.
	Installed string `json:"installed_version,omitempty"`
	Shipped   string `json:"shipped_version"`
	// Differs lists the files that differ from or are missing against the
	// shipped ones.
	Differs []string `json:"differs,omitempty"`
}

// Compare reports whether dir holds the shipped skill.
func Compare(dir string) (State, error) {
	st := State{Dir: dir}
	var err error
	if st.Shipped, err = Version(); err != nil {
		return st, err
	}
	files, err := Files(Embedded())
	if err != nil {
		return st, err
	}
	md, err := os.ReadFile(filepath.Join(dir, "SKILL.md"))
	if err != nil {
		st.Status = "missing"
		return st, nil
	}
	if fm, _, err := Parse(md, dir); err == nil {
		st.Installed = fm.Version
	}
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil || digest(got) != digest(files[p]) {
			st.Differs = append(st.Differs, p)
		}
	}
	st.Status = "current"
	if len(st.Differs) > 0 {
		st.Status = "outdated"
	}
	return st, nil
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
