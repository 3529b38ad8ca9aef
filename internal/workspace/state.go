package workspace

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Field names and enums of docs/protocol.md §3.
const (
	StatusPlanning     = "planning"
	StatusPending      = "pending"
	StatusInProgress   = "in_progress"
	StatusCompleted    = "completed"
	StatusBlocked      = "blocked"
	StatusCancelled    = "cancelled"
	StatusWaitingHuman = "waiting_human"
)

// NextPhase is one next_phases entry: {phase, action, done, current}.
type NextPhase struct {
	Phase   int    `json:"phase"`
	Action  string `json:"action"`
	Done    bool   `json:"done"`
	Current bool   `json:"current"`

	raw *Object
	// Bad lists the keys whose value had the wrong JSON type.
	Bad []string `json:"-"`
}

// Blocker is one checkpoint question (docs/protocol.md §3.2).
type Blocker struct {
	ID               string   `json:"id"`
	Question         string   `json:"question"`
	Options          []string `json:"options"`
	DefaultIfNoReply *string  `json:"default_if_no_reply"`

	raw *Object
	Bad []string `json:"-"`
}

// Checkpoint is a feature checkpoint or a sprint gate (docs/protocol.md §3.2, D11).
type Checkpoint struct {
	ID          string    `json:"id"`
	Phase       *int      `json:"phase"`
	Type        string    `json:"type"`
	Prompt      string    `json:"prompt,omitempty"`
	Blockers    []Blocker `json:"blockers"`
	Artifacts   []string  `json:"artifacts"`
	Status      string    `json:"status"`
	CreatedAt   *string   `json:"created_at"`
	RespondedAt *string   `json:"responded_at"`
	Decision    *string   `json:"decision"`
	Feedback    *string   `json:"feedback"`
	ReminderAt  []string  `json:"reminded_at"`

	raw *Object
	Bad []string `json:"-"`
}

// Feature is one feature_list.features entry (docs/protocol.md §3.2).
type Feature struct {
	ID               string       `json:"id"`
	Name             string       `json:"name"`
	Title            string       `json:"title,omitempty"`
	Status           string       `json:"status"`
	Assignee         string       `json:"assignee,omitempty"`
	Priority         string       `json:"priority,omitempty"`
	Phase            int          `json:"phase"`
	NextPhases       []NextPhase  `json:"next_phases"`
	ExecutionPath    string       `json:"execution_path,omitempty"`
	Acceptance       []string     `json:"acceptance"`
	VerificationMode string       `json:"verification_mode,omitempty"`
	DependsOn        []string     `json:"depends_on"`
	ParentID         *string      `json:"parent_id"`
	Children         []string     `json:"children,omitempty"`
	Branch           *string      `json:"branch"`
	Commit           *string      `json:"commit"`
	PRURL            *string      `json:"pr_url"`
	CreatedAt        *string      `json:"created_at"`
	CompletedAt      *string      `json:"completed_at"`
	SprintID         string       `json:"sprint_id,omitempty"`
	Checkpoints      []Checkpoint `json:"checkpoints"`
	RetryHint        string       `json:"retry_hint,omitempty"`

	raw *Object
	// Bad lists the keys whose value had the wrong JSON type (e.g. "phase"
	// when phase is "2"); those fields keep their zero value.
	Bad []string `json:"-"`
}

// PhaseOK reports whether phase was present and a JSON number with an
// integral value (2 and 2.0; not "2", not null). Always true for a Feature
// built in code.
func (f *Feature) PhaseOK() bool {
	if f.raw == nil {
		return true
	}
	v, ok := f.raw.Get("phase")
	if !ok {
		return false
	}
	_, ok = integral(v)
	return ok
}

// JSONInt decodes raw as a JSON number with an integral value (2, 2.0,
// 2e0); false for strings, null, fractions and anything else.
func JSONInt(raw json.RawMessage) (int, bool) { return integral(raw) }

// integral decodes raw as a JSON number with an integral value.
func integral(raw json.RawMessage) (int, bool) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || (t[0] != '-' && (t[0] < '0' || t[0] > '9')) {
		return 0, false // json.Number would also accept the string "2"
	}
	if i, ok := plainInt(t); ok {
		return int(i), true
	}
	var n json.Number
	if err := json.Unmarshal(t, &n); err != nil || n == "" {
		return 0, false
	}
	if i, err := n.Int64(); err == nil {
		return int(i), true
	}
	f, err := n.Float64()
	if err != nil || f != float64(int64(f)) || f > 1<<31 || f < -(1<<31) {
		return 0, false
	}
	return int(f), true
}

// NextPhase returns the next_phases entry whose phase equals p (not an
// index), or nil.
func (f *Feature) NextPhase(p int) *NextPhase {
	for i := range f.NextPhases {
		if f.NextPhases[i].Phase == p {
			return &f.NextPhases[i]
		}
	}
	return nil
}

// FeatureList is H/feature_list.json (docs/protocol.md §3.2).
type FeatureList struct {
	Version         string    `json:"version"`
	Sprint          string    `json:"sprint"`
	PipelineID      *string   `json:"pipeline_id"`
	PipelineVersion *string   `json:"pipeline_version"`
	ToolingLocked   bool      `json:"tooling_locked"`
	UpdatedAt       *string   `json:"updated_at"`
	UpdatedBy       string    `json:"updated_by,omitempty"`
	Features        []Feature `json:"features"`
	Blocked         []string  `json:"blocked"`
	// SprintCheckpoints holds the sprint gates cp-sprint-tooling and
	// cp-sprint-dag (proposed, optional; testdata/sprints/README.md D11).
	SprintCheckpoints []Checkpoint `json:"sprint_checkpoints,omitempty"`

	raw *Object
	Bad []string `json:"-"`
}

// Feature returns the feature with id, or nil.
func (l *FeatureList) Feature(id string) *Feature {
	for i := range l.Features {
		if l.Features[i].ID == id {
			return &l.Features[i]
		}
	}
	return nil
}

// PoolEntry is one session_pool.active value (docs/protocol.md §3.3).
type PoolEntry struct {
	SessionID    string  `json:"session_id"`
	SessionType  string  `json:"session_type,omitempty"`
	Status       string  `json:"status"`
	StartedAt    *string `json:"started_at"`
	LastActivity *string `json:"last_activity"`
	CurrentPhase *int    `json:"current_phase"`

	raw *Object
	Bad []string `json:"-"`
}

// SessionPool is H/session_pool.json (docs/protocol.md §3.3). Active keeps the
// file's key order in ActiveOrder.
type SessionPool struct {
	MaxConcurrent int                   `json:"max_concurrent"`
	Policy        string                `json:"policy"`
	Active        map[string]*PoolEntry `json:"-"`
	ActiveOrder   []string              `json:"-"`

	raw *Object
	Bad []string `json:"-"`
}

// RuntimeState is H/runtime_state.json (docs/protocol.md §3.1).
type RuntimeState struct {
	Mode               string   `json:"mode"`
	CurrentSprint      *string  `json:"current_sprint"`
	CurrentProjectPath *string  `json:"current_project_path"`
	PendingUserReplies []string `json:"pending_user_replies"`
	SessionStartedAt   *string  `json:"session_started_at"`
	LastHeartbeat      *string  `json:"last_heartbeat"`
	LastResetAt        *string  `json:"last_reset_at"`

	raw *Object
	Bad []string `json:"-"`
}

// HermesContext is H/hermes_context_state.json (docs/protocol.md §3.7).
// PendingEval stays raw (null or an object).
type HermesContext struct {
	Agent                         string          `json:"agent,omitempty"`
	UpdatedAt                     *string         `json:"updated_at"`
	TokenUsageRatio               *float64        `json:"token_usage_ratio"`
	ConsecutiveSprintsWithRetries *int            `json:"consecutive_sprints_with_retries"`
	CurrentSprint                 *string         `json:"current_sprint"`
	SessionStart                  *string         `json:"session_start"`
	PendingEval                   json.RawMessage `json:"pending_eval"`
	PendingCheckpoints            []string        `json:"pending_checkpoints"`
	LastResetAt                   *string         `json:"last_reset_at"`

	raw *Object
	Bad []string `json:"-"`
}

// CurrentAgent is H/.current_agent (docs/protocol.md §3.9).
type CurrentAgent struct {
	Role           string  `json:"role"`
	Platform       string  `json:"platform,omitempty"`
	Developer      string  `json:"developer,omitempty"`
	SessionID      *string `json:"session_id"`
	StartedAt      *string `json:"started_at"`
	CurrentFeature *string `json:"current_feature"`
	CurrentPhase   *int    `json:"current_phase"`
	LastActivity   *string `json:"last_activity"`

	raw *Object
	Bad []string `json:"-"`
}

// Contract is H/sprint_contracts/<sprint>/contract.json (docs/protocol.md §3.4).
type Contract struct {
	SprintID          string            `json:"sprint_id"`
	CreatedAt         *string           `json:"created_at"`
	CreatedBy         string            `json:"created_by"`
	GeneratorContract string            `json:"generator_contract"`
	Features          []string          `json:"features"`
	EvaluatorCriteria map[string]string `json:"evaluator_criteria"`
	Status            string            `json:"status,omitempty"`

	raw *Object
	Bad []string `json:"-"`
}

// lenient decoding (one bad field never hides the others) and merged
// encoding (unknown keys and order kept) for every state type.

func decodeInto(data []byte, dst any) (*Object, []string, error) {
	obj, err := ParseObject(data)
	if err != nil {
		return nil, nil, err
	}
	return obj, decodeLenient(obj, dst), nil
}

// UnmarshalJSON implements lenient decoding keeping unknown fields.
func (n *NextPhase) UnmarshalJSON(b []byte) (err error) {
	type plain NextPhase
	var p plain
	raw, bad, err := decodeInto(b, &p)
	*n = NextPhase(p)
	n.raw, n.Bad = raw, bad
	return err
}

// MarshalJSON keeps unknown fields and key order.
func (n NextPhase) MarshalJSON() ([]byte, error) {
	type plain NextPhase
	return encodeMerged(n.raw, plain(n))
}

// UnmarshalJSON implements lenient decoding keeping unknown fields.
func (x *Blocker) UnmarshalJSON(b []byte) (err error) {
	type plain Blocker
	var p plain
	raw, bad, err := decodeInto(b, &p)
	*x = Blocker(p)
	x.raw, x.Bad = raw, bad
	return err
}

// MarshalJSON keeps unknown fields and key order.
func (x Blocker) MarshalJSON() ([]byte, error) {
	type plain Blocker
	return encodeMerged(x.raw, plain(x))
}

// UnmarshalJSON implements lenient decoding keeping unknown fields.
func (x *Checkpoint) UnmarshalJSON(b []byte) (err error) {
	type plain Checkpoint
	var p plain
	raw, bad, err := decodeInto(b, &p)
	*x = Checkpoint(p)
	x.raw, x.Bad = raw, bad
	return err
}

// MarshalJSON keeps unknown fields and key order.
func (x Checkpoint) MarshalJSON() ([]byte, error) {
	type plain Checkpoint
	return encodeMerged(x.raw, plain(x))
}

// UnmarshalJSON implements lenient decoding keeping unknown fields.
func (x *Feature) UnmarshalJSON(b []byte) (err error) {
	type plain Feature
	var p plain
	raw, bad, err := decodeInto(b, &p)
	*x = Feature(p)
	x.raw, x.Bad = raw, bad
	if v, ok := raw.Get("phase"); ok {
		if n, ok := integral(v); ok && x.Phase != n { // 2.0
			x.Phase = n
			x.Bad = remove(x.Bad, "phase")
		}
	}
	return err
}

// MarshalJSON keeps unknown fields and key order.
func (x Feature) MarshalJSON() ([]byte, error) {
	type plain Feature
	return encodeMerged(x.raw, plain(x))
}

// UnmarshalJSON implements lenient decoding keeping unknown fields.
func (x *FeatureList) UnmarshalJSON(b []byte) (err error) {
	type plain FeatureList
	var p plain
	raw, bad, err := decodeInto(b, &p)
	*x = FeatureList(p)
	x.raw, x.Bad = raw, bad
	return err
}

// MarshalJSON keeps unknown fields and key order.
func (x FeatureList) MarshalJSON() ([]byte, error) {
	type plain FeatureList
	return encodeMerged(x.raw, plain(x))
}

// UnmarshalJSON implements lenient decoding keeping unknown fields.
func (x *PoolEntry) UnmarshalJSON(b []byte) (err error) {
	type plain PoolEntry
	var p plain
	raw, bad, err := decodeInto(b, &p)
	*x = PoolEntry(p)
	x.raw, x.Bad = raw, bad
	return err
}

// MarshalJSON keeps unknown fields and key order.
func (x PoolEntry) MarshalJSON() ([]byte, error) {
	type plain PoolEntry
	return encodeMerged(x.raw, plain(x))
}

// UnmarshalJSON implements lenient decoding keeping unknown fields; active
// entries keep their order in ActiveOrder.
func (x *SessionPool) UnmarshalJSON(b []byte) (err error) {
	type plain SessionPool
	var p plain
	raw, bad, err := decodeInto(b, &p)
	*x = SessionPool(p)
	x.raw, x.Bad = raw, bad
	if err != nil {
		return err
	}
	x.Active = map[string]*PoolEntry{}
	if av, ok := raw.Get("active"); ok {
		act, err := ParseObject(av)
		if err != nil {
			x.Bad = append(x.Bad, "active")
			return nil
		}
		for _, k := range act.Keys() {
			v, _ := act.Get(k)
			e := &PoolEntry{}
			if err := json.Unmarshal(v, e); err != nil {
				x.Bad = append(x.Bad, "active."+k)
				continue
			}
			x.Active[k] = e
			x.ActiveOrder = append(x.ActiveOrder, k)
		}
	}
	return nil
}

// MarshalJSON keeps unknown fields and key order; active is written in
// ActiveOrder, then any other key of Active in map order.
func (x SessionPool) MarshalJSON() ([]byte, error) {
	type plain SessionPool
	b, err := encodeMerged(x.raw, plain(x))
	if err != nil {
		return nil, err
	}
	obj, err := ParseObject(b)
	if err != nil {
		return nil, err
	}
	act := &Object{}
	for _, k := range x.ActiveOrder {
		if e, ok := x.Active[k]; ok {
			if err := act.Set(k, e); err != nil {
				return nil, err
			}
		}
	}
	for k, e := range x.Active {
		if !act.Has(k) {
			if err := act.Set(k, e); err != nil {
				return nil, err
			}
		}
	}
	ab, _ := act.MarshalJSON()
	if err := obj.Set("active", json.RawMessage(ab)); err != nil {
		return nil, err
	}
	return obj.MarshalJSON()
}

// UnmarshalJSON implements lenient decoding keeping unknown fields.
func (x *RuntimeState) UnmarshalJSON(b []byte) (err error) {
	type plain RuntimeState
	var p plain
	raw, bad, err := decodeInto(b, &p)
	*x = RuntimeState(p)
	x.raw, x.Bad = raw, bad
	return err
}

// MarshalJSON keeps unknown fields and key order.
func (x RuntimeState) MarshalJSON() ([]byte, error) {
	type plain RuntimeState
	return encodeMerged(x.raw, plain(x))
}

// UnmarshalJSON implements lenient decoding keeping unknown fields.
func (x *HermesContext) UnmarshalJSON(b []byte) (err error) {
	type plain HermesContext
	var p plain
	raw, bad, err := decodeInto(b, &p)
	*x = HermesContext(p)
	x.raw, x.Bad = raw, bad
	return err
}

// MarshalJSON keeps unknown fields and key order.
func (x HermesContext) MarshalJSON() ([]byte, error) {
	type plain HermesContext
	return encodeMerged(x.raw, plain(x))
}

// UnmarshalJSON implements lenient decoding keeping unknown fields.
func (x *CurrentAgent) UnmarshalJSON(b []byte) (err error) {
	type plain CurrentAgent
	var p plain
	raw, bad, err := decodeInto(b, &p)
	*x = CurrentAgent(p)
	x.raw, x.Bad = raw, bad
	return err
}

// MarshalJSON keeps unknown fields and key order.
func (x CurrentAgent) MarshalJSON() ([]byte, error) {
	type plain CurrentAgent
	return encodeMerged(x.raw, plain(x))
}

// UnmarshalJSON implements lenient decoding keeping unknown fields.
func (x *Contract) UnmarshalJSON(b []byte) (err error) {
	type plain Contract
	var p plain
	raw, bad, err := decodeInto(b, &p)
	*x = Contract(p)
	x.raw, x.Bad = raw, bad
	return err
}

// MarshalJSON keeps unknown fields and key order.
func (x Contract) MarshalJSON() ([]byte, error) {
	type plain Contract
	return encodeMerged(x.raw, plain(x))
}

// Raw returns the object as read from disk (nil for a value built in code).
func (x *FeatureList) Raw() *Object { return x.raw }

// Raw returns the object as read from disk (nil for a value built in code).
func (x *Feature) Raw() *Object { return x.raw }

// readJSON reads path and decodes it into dst (a state type above). A path
// that is not a regular file is a *fsutil.NotRegularError (never a hang on a
// FIFO).
func readJSON(path string, dst any) error {
	data, err := ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, dst); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// LoadFeatureList reads H/feature_list.json. Errors: fs.ErrNotExist (wrapped)
// when missing; a parse error when it is not a JSON object. Ill-typed fields
// are left zero and listed in Bad (of the list or of each feature).
func (w *Workspace) LoadFeatureList() (*FeatureList, error) {
	var v FeatureList
	if err := readJSON(w.FeatureList(), &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// LoadSessionPool reads H/session_pool.json (errors as LoadFeatureList).
func (w *Workspace) LoadSessionPool() (*SessionPool, error) {
	var v SessionPool
	if err := readJSON(w.SessionPool(), &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// LoadRuntimeState reads H/runtime_state.json (errors as LoadFeatureList).
func (w *Workspace) LoadRuntimeState() (*RuntimeState, error) {
	var v RuntimeState
	if err := readJSON(w.RuntimeState(), &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// LoadHermesContext reads H/hermes_context_state.json (errors as LoadFeatureList).
func (w *Workspace) LoadHermesContext() (*HermesContext, error) {
	var v HermesContext
	if err := readJSON(w.HermesContext(), &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// LoadCurrentAgent reads H/.current_agent (errors as LoadFeatureList).
func (w *Workspace) LoadCurrentAgent() (*CurrentAgent, error) {
	var v CurrentAgent
	if err := readJSON(w.CurrentAgent(), &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// LoadContract reads H/sprint_contracts/<sprint>/contract.json.
func (w *Workspace) LoadContract(sprint string) (*Contract, error) {
	var v Contract
	if err := readJSON(w.Contract(sprint), &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// Started reports whether feature f counts as started (testdata/sprints/README.md §4,
// D16, D27): status in_progress, completed or waiting_human, or phase ≥ 2,
// or f.ID is a key of the pool's active map (pool may be nil).
func Started(f *Feature, pool *SessionPool) bool {
	switch f.Status {
	case StatusInProgress, StatusCompleted, StatusWaitingHuman:
		return true
	}
	if f.Phase >= 2 {
		return true
	}
	if pool != nil {
		if _, ok := pool.Active[f.ID]; ok {
			return true
		}
	}
	return false
}

func remove(ss []string, s string) []string {
	out := ss[:0]
	for _, x := range ss {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}
