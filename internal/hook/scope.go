package hook

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/workspace"
)

// scope is the sprint workspace and feature one hook call runs in
// (testdata/sprints/README.md §7 "Workspace and feature", testdata/corpus/README.md §3.0).
type scope struct {
	// Root is the absolute sprint root; "" outside any workspace (the Bash
	// command policy still applies, workspace rules do not).
	Root string
	// HasState is true when Root/.harness/ is a directory (hook.log can be written).
	HasState bool
	// Feature is the running feature (a Generator session); "" when none.
	Feature string
	// FeatureFrom says where Feature came from: "flag", "env", "cwd" or "".
	FeatureFrom string
	// Sprint is the sprint id from --sprint or SPRINT_ID; "" when not given.
	Sprint string
	// Errors are problems met while resolving (logged, never fatal).
	Errors []string
}

// resolveScope applies the precedence flags > env (HARNESS_ROOT, FEATURE_ID,
// SPRINT_ID) > discovery. Discovery walks up from cwd (the payload's cwd, else
// the process working directory) to the nearest folder holding .harness/;
// the feature is discovered only from a cwd inside .harness/features/<F>/,
// never from .harness/.current_agent (testdata/sprints/README.md D21).
func resolveScope(f flags, env map[string]string, cwd string) scope {
	var s scope
	root, err := workspace.Resolve(f.root, env, cwd)
	switch {
	case errors.Is(err, workspace.ErrNoWorkspace):
	case err != nil:
		s.Errors = append(s.Errors, "workspace: "+err.Error())
	default:
		s.Root = root
		if st, err := os.Stat(filepath.Join(root, workspace.HarnessDir)); err == nil && st.IsDir() {
			s.HasState = true
		}
	}

	switch {
	case f.feature != "":
		s.Feature, s.FeatureFrom = f.feature, "flag"
	case env["FEATURE_ID"] != "":
		s.Feature, s.FeatureFrom = env["FEATURE_ID"], "env"
	case s.Root != "" && cwd != "":
		if id := featureFromCwd(s.Root, cwd); id != "" {
			s.Feature, s.FeatureFrom = id, "cwd"
		}
	}
	if s.Feature != "" && !safeFeatureID(s.Feature) {
		s.Errors = append(s.Errors, fmt.Sprintf("feature id %q from %s is not a single path component; ignored", s.Feature, s.FeatureFrom))
		s.Feature, s.FeatureFrom = "", ""
	}

	s.Sprint = f.sprint
	if s.Sprint == "" {
		s.Sprint = env["SPRINT_ID"]
	}
	if s.Sprint != "" && !safeFeatureID(s.Sprint) {
		s.Errors = append(s.Errors, fmt.Sprintf("sprint id %q is not a single path component; ignored", s.Sprint))
		s.Sprint = ""
	}
	return s
}

// safeFeatureID reports whether id can name a directory under
// .harness/features/ without escaping it.
func safeFeatureID(id string) bool {
	if id == "" || id == "." || id == ".." || strings.TrimSpace(id) != id {
		return false
	}
	return !strings.ContainsAny(id, "/\\\x00:")
}

// featureFromCwd returns F when cwd lies inside root/.harness/features/F/
// (lexically, or after resolving symlinks of both), else "".
func featureFromCwd(root, cwd string) string {
	if !filepath.IsAbs(cwd) {
		return ""
	}
	if id := featureUnder(root, cwd); id != "" {
		return id
	}
	rr, err1 := filepath.EvalSymlinks(root)
	rc, err2 := filepath.EvalSymlinks(cwd)
	if err1 == nil && err2 == nil {
		return featureUnder(rr, rc)
	}
	return ""
}

func featureUnder(root, cwd string) string {
	rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(cwd))
	if err != nil {
		return ""
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if len(parts) >= 3 && parts[0] == workspace.HarnessDir && parts[1] == "features" && parts[2] != "" {
		return parts[2]
	}
	return ""
}
