package hook

import (
	"errors"
	"path/filepath"

	"github.com/superagent-harness/harness/internal/allowonce"
	"github.com/superagent-harness/harness/internal/bashguard"
)

// Override files outside a sprint workspace (rules/README.md "Outside a
// sprint"): the schema of .harness/rules.yaml, read by the same loader
// (bashguard.LoadOverridesFile), at two levels layered over the preset —
// preset < user < project.
const (
	// ProjectConfigFile is the project's override file, relative to the
	// project directory: beside the .claude/settings.json Claude Code reads
	// and `harness install --project` edits.
	ProjectConfigFile = ".claude/harness.yaml"
	// UserConfigFile is the user's override file, relative to the home
	// directory: beside ~/.claude/settings.json (`harness install --user`).
	UserConfigFile = ".claude/harness.yaml"
)

// ConfigScope is where the override and allow-once files of a call outside
// a sprint workspace are.
type ConfigScope struct {
	// ProjectDir is the project: CLAUDE_PROJECT_DIR (the directory the
	// session started in, which does not follow cd; docs/hooks.md §1) when
	// it is absolute, else the call's cwd; "" when neither is absolute.
	ProjectDir string
	// Home is the user's home directory (HOME, else USERPROFILE); "" when unknown.
	Home string
}

// NewConfigScope is the ConfigScope of a call with environment env and
// working directory cwd.
func NewConfigScope(env map[string]string, cwd string) ConfigScope {
	var s ConfigScope
	switch {
	case filepath.IsAbs(env["CLAUDE_PROJECT_DIR"]):
		s.ProjectDir = filepath.Clean(env["CLAUDE_PROJECT_DIR"])
	case filepath.IsAbs(cwd):
		s.ProjectDir = filepath.Clean(cwd)
	}
	if h := homeDir(env); filepath.IsAbs(h) {
		s.Home = filepath.Clean(h)
	}
	return s
}

// ConfigFile is one override or allow-once file of a level.
type ConfigFile struct {
	// Level is "user" or "project".
	Level string
	// Path is the absolute file path.
	Path string
	// Base is the directory its allow globs are relative to.
	Base string
}

// OverrideFiles are the override files, lowest precedence first (user,
// then project); a level whose directory is unknown is left out, and a
// project that is the home directory has one file, the project's.
func (s ConfigScope) OverrideFiles() []ConfigFile {
	var out []ConfigFile
	if s.Home != "" && s.Home != s.ProjectDir {
		out = append(out, ConfigFile{Level: "user", Path: filepath.Join(s.Home, filepath.FromSlash(UserConfigFile)), Base: s.ProjectDir})
	}
	if s.ProjectDir != "" {
		out = append(out, ConfigFile{Level: "project", Path: filepath.Join(s.ProjectDir, filepath.FromSlash(ProjectConfigFile)), Base: s.ProjectDir})
	}
	return out
}

// AllowOnceFiles are the allow-once logs, highest precedence first (the
// project's is used before the user's).
func (s ConfigScope) AllowOnceFiles() []ConfigFile {
	var out []ConfigFile
	if s.ProjectDir != "" {
		out = append(out, ConfigFile{Level: "project", Path: allowonce.ProjectPath(s.ProjectDir), Base: s.ProjectDir})
	}
	if s.Home != "" && s.Home != s.ProjectDir {
		out = append(out, ConfigFile{Level: "user", Path: allowonce.UserPath(s.Home), Base: s.Home})
	}
	return out
}

// errResetOutsideSprint: the reset: thresholds are a sprint's (§8.1).
var errResetOutsideSprint = errors.New("reset: applies only to a sprint's .harness/rules.yaml")

// LoadConfig reads the override files of s and layers them (user beneath
// project). loaded are the files that exist and were read. An invalid
// file (one the loader refuses, a FIFO, a reset: section) gives nil
// overrides and its error: the preset then applies unchanged, as with an
// invalid .harness/rules.yaml (docs/hook-failure-policy.md), so a broken
// file never weakens the policy, and the error is logged with every
// decision.
func (s ConfigScope) LoadConfig() (ov *bashguard.Overrides, loaded []string, err error) {
	for _, f := range s.OverrideFiles() {
		o, err := bashguard.LoadOverridesFile(f.Path, f.Base)
		if err == nil && o != nil && o.Reset != nil {
			err = errors.New(f.Path + ": " + errResetOutsideSprint.Error())
		}
		if err != nil {
			return nil, nil, err
		}
		if o != nil {
			ov = bashguard.Layer(ov, o)
			loaded = append(loaded, f.Path)
		}
	}
	return ov, loaded, nil
}
