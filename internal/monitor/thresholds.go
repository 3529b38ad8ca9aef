package monitor

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/superagent-harness/harness/internal/fsutil"
)

// RulesFile is the sprint's override file, relative to the sprint root; its
// `reset:` section sets the thresholds (the rest belongs to the guard rules,
// internal/bashguard).
const RulesFile = ".harness/rules.yaml"

// Thresholds are the Reset triggers' limits of one sprint (docs/protocol.md
// §8.1 for the Feature Reset, §8.2 for Hermes, §7 for stale sessions). A
// soft limit makes the hook tell the Generator once how to Reset; a hard one
// makes it refuse every tool call but the Reset's own.
type Thresholds struct {
	// ContextRatio: the context trigger fires when token_usage_ratio > it (0.70).
	ContextRatio float64
	// ContextHardRatio: past it every other tool call is refused (0.85).
	ContextHardRatio float64
	// Retries: the retries trigger fires at ≥ this many retries (2).
	Retries int
	// RetriesHard: the hard limit of retries (3).
	RetriesHard int
	// SessionAge: the age trigger fires when the session is older (2h).
	SessionAge time.Duration
	// SessionAgeHard: the hard limit of the session's age (2h30m).
	SessionAgeHard time.Duration
	// ContextWindow, when > 0, replaces the window known for the model
	// (a gateway model, a window the table does not know).
	ContextWindow int64
	// Models maps a model id to its window, before ContextWindow and the
	// built-in table (ContextWindow of models.go).
	Models map[string]int64
	// StaleAfter: a running session with no hook record for this long is
	// reported stale (30m).
	StaleAfter time.Duration
	// HermesSessionAge: Hermes' own Reset is due past this age of
	// runtime_state.session_started_at (3h).
	HermesSessionAge time.Duration
	// HermesContextRatio: Hermes' Reset is due when its own
	// token_usage_ratio exceeds it (0.70).
	HermesContextRatio float64
	// HermesConsecutiveSprints: Hermes' Reset is due at this many
	// consecutive sprints with retries (3).
	HermesConsecutiveSprints int
	// PreCompact is the policy for an automatic compaction in a Generator
	// session: "block" (default; see PreCompactDecision) or "allow".
	PreCompact string
}

// Default returns the protocol's thresholds.
func Default() Thresholds {
	return Thresholds{
		ContextRatio: 0.70, ContextHardRatio: 0.85,
		Retries: 2, RetriesHard: 3,
		SessionAge: 2 * time.Hour, SessionAgeHard: 150 * time.Minute,
		StaleAfter:       30 * time.Minute,
		HermesSessionAge: 3 * time.Hour, HermesContextRatio: 0.70, HermesConsecutiveSprints: 3,
		PreCompact: PreCompactBlock,
	}
}

// PreCompact policies.
const (
	PreCompactBlock = "block"
	PreCompactAllow = "allow"
)

// Window returns the context window for model under these thresholds.
func (t Thresholds) Window(model string) int64 {
	if w, ok := t.Models[model]; ok && w > 0 {
		return w
	}
	if t.ContextWindow > 0 {
		return t.ContextWindow
	}
	return ContextWindow(model)
}

// resetYAML is the `reset:` section of rules.yaml. Durations are Go
// durations ("2h", "150m"); unknown keys are errors.
type resetYAML struct {
	ContextRatio             *float64         `yaml:"context_ratio"`
	ContextHardRatio         *float64         `yaml:"context_hard_ratio"`
	Retries                  *int             `yaml:"retries"`
	RetriesHard              *int             `yaml:"retries_hard"`
	SessionAge               string           `yaml:"session_age"`
	SessionAgeHard           string           `yaml:"session_age_hard"`
	ContextWindow            *int64           `yaml:"context_window"`
	Models                   map[string]int64 `yaml:"models"`
	StaleAfter               string           `yaml:"stale_after"`
	HermesSessionAge         string           `yaml:"hermes_session_age"`
	HermesContextRatio       *float64         `yaml:"hermes_context_ratio"`
	HermesConsecutiveSprints *int             `yaml:"hermes_consecutive_sprints"`
	PreCompact               string           `yaml:"precompact"`
}

// LoadThresholds reads the `reset:` section of <root>/.harness/rules.yaml
// over Default. A missing file or section gives Default and no error; an
// invalid section gives Default and the error (the caller logs it: a broken
// override never turns the triggers off).
func LoadThresholds(root string) (Thresholds, error) {
	data, err := fsutil.ReadRegular(filepath.Join(root, filepath.FromSlash(RulesFile)), 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return Default(), fmt.Errorf("%s: %w", RulesFile, err)
	}
	if !bytes.Contains(data, []byte("reset")) {
		return Default(), nil // no section: skip the YAML parse
	}
	t, err := ParseThresholds(data)
	if err != nil {
		return Default(), fmt.Errorf("%s: reset: %w", RulesFile, err)
	}
	return t, nil
}

// ParseThresholds decodes the `reset:` section of a rules.yaml document over
// Default and checks it: ratios in (0, 1] with the hard one ≥ the soft one,
// counts ≥ 1, durations > 0, windows > 0, precompact block or allow.
func ParseThresholds(doc []byte) (Thresholds, error) {
	t := Default()
	var top map[string]any
	if err := yaml.Unmarshal(doc, &top); err != nil {
		return t, err
	}
	sec, ok := top["reset"]
	if !ok || sec == nil {
		return t, nil
	}
	raw, err := yaml.Marshal(sec)
	if err != nil {
		return t, err
	}
	var y resetYAML
	if err := yaml.UnmarshalWithOptions(raw, &y, yaml.Strict()); err != nil {
		return Default(), err
	}
	ratio := func(name string, src *float64, dst *float64) error {
		if src == nil {
			return nil
		}
		if *src <= 0 || *src > 1 {
			return fmt.Errorf("%s %v is not in (0, 1]", name, *src)
		}
		*dst = *src
		return nil
	}
	count := func(name string, src *int, dst *int) error {
		if src == nil {
			return nil
		}
		if *src < 1 {
			return fmt.Errorf("%s %d is below 1", name, *src)
		}
		*dst = *src
		return nil
	}
	dur := func(name, src string, dst *time.Duration) error {
		if src == "" {
			return nil
		}
		d, err := time.ParseDuration(src)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if d <= 0 {
			return fmt.Errorf("%s %s is not positive", name, src)
		}
		*dst = d
		return nil
	}
	for _, err := range []error{
		ratio("context_ratio", y.ContextRatio, &t.ContextRatio),
		ratio("context_hard_ratio", y.ContextHardRatio, &t.ContextHardRatio),
		ratio("hermes_context_ratio", y.HermesContextRatio, &t.HermesContextRatio),
		count("retries", y.Retries, &t.Retries),
		count("retries_hard", y.RetriesHard, &t.RetriesHard),
		count("hermes_consecutive_sprints", y.HermesConsecutiveSprints, &t.HermesConsecutiveSprints),
		dur("session_age", y.SessionAge, &t.SessionAge),
		dur("session_age_hard", y.SessionAgeHard, &t.SessionAgeHard),
		dur("stale_after", y.StaleAfter, &t.StaleAfter),
		dur("hermes_session_age", y.HermesSessionAge, &t.HermesSessionAge),
	} {
		if err != nil {
			return Default(), err
		}
	}
	if y.ContextWindow != nil {
		if *y.ContextWindow <= 0 {
			return Default(), fmt.Errorf("context_window %d is not positive", *y.ContextWindow)
		}
		t.ContextWindow = *y.ContextWindow
	}
	for m, w := range y.Models {
		if w <= 0 {
			return Default(), fmt.Errorf("models: %s: window %d is not positive", m, w)
		}
	}
	t.Models = y.Models
	switch y.PreCompact {
	case "":
	case PreCompactBlock, PreCompactAllow:
		t.PreCompact = y.PreCompact
	default:
		return Default(), fmt.Errorf("precompact %q is neither %q nor %q", y.PreCompact, PreCompactBlock, PreCompactAllow)
	}
	// a hard limit below its soft one would refuse before telling
	if t.ContextHardRatio < t.ContextRatio {
		return Default(), fmt.Errorf("context_hard_ratio %v is below context_ratio %v", t.ContextHardRatio, t.ContextRatio)
	}
	if t.RetriesHard < t.Retries {
		return Default(), fmt.Errorf("retries_hard %d is below retries %d", t.RetriesHard, t.Retries)
	}
	if t.SessionAgeHard < t.SessionAge {
		return Default(), fmt.Errorf("session_age_hard %s is below session_age %s", t.SessionAgeHard, t.SessionAge)
	}
	return t, nil
}
