package ops

import (
	"fmt"
	"strings"
	"time"
)

// FinalizeDefaultAfter is how long the 【Sprint finalizing】 question waits
// for the user before the default (b, archive only) applies
// (docs/protocol.md §9.2 step 4).
const FinalizeDefaultAfter = 72 * time.Hour

// CloseInput is `harness finalize --close [--sink ID | --archive]`.
type CloseInput struct {
	// Sink: the user chose a (sink into pipeline Sink.ID, counted as a run).
	Sink *SinkInput
	// Archive: the user chose b (archive only, status closed).
	Archive bool
}

// CloseResult is what finalize --close did.
type CloseResult struct {
	// Step: "asked" (the finalizing message, waiting for a/b/c), "sunk" or
	// "closed" (the sprint is over, runtime idle).
	Step string `json:"step"`
	// Findings is the number of finalize --check errors.
	Findings int `json:"findings"`
	// Message is the message to send to the user.
	Message  string `json:"message"`
	Pipeline string `json:"pipeline,omitempty"`
	Version  string `json:"version,omitempty"`
	// Default: the 72 h default (b) applied because nobody answered.
	Default bool `json:"default,omitempty"`
}

// FinalizeClose is STEP 5, the finalizer (docs/protocol.md §4.9, §9.2). It
// needs every feature completed or cancelled, no checkpoint pending and no
// pending_eval (the state gate refuses then), and sets the contract to
// finalizing.
//
// Without a choice it runs the checklist and returns the 【Sprint finalizing】
// message (the check totals, options a sink, b archive only, c draft first),
// recording contract.finalizer.asked_at the first time; once asked_at is
// FinalizeDefaultAfter old, the same call applies the default b (archive,
// recorded as finalizer.decided_by "default_72h").
//
// With --sink ID it sinks the sprint (PipelineSink's rules: finalize --check
// must pass, counted once, version rules) and sets the contract sunk; with
// --archive it sets the contract closed. Both then close the sprint in one
// transaction: runtime_state.mode idle, current_sprint and
// current_project_path null, pending_user_replies empty, session_pool.active
// empty; and return the 【Sprint 完成】 message. The draft of option c is
// `harness pipeline sink --id ID --dry-run`.
func FinalizeClose(env *Env, in CloseInput) (*CloseResult, *Report, error) {
	rep := &Report{Command: "finalize --close"}
	if err := env.hermesOnly(rep.Command); err != nil {
		return nil, nil, err
	}
	if err := env.pendingEvalGate(rep.Command); err != nil {
		return nil, nil, err
	}
	if in.Sink != nil && in.Archive {
		return nil, nil, usage("give --sink ID or --archive, not both")
	}
	fl, err := env.loadFeatureList()
	if err != nil {
		return nil, nil, err
	}
	contract, _, err := env.loadContract(fl)
	if err != nil {
		return nil, nil, err
	}
	if contract == nil {
		return nil, nil, refuse("sprint %s has no contract: nothing to finalize", fl.sprint())
	}
	if st := contract.Str("status"); st == "sunk" || st == "closed" {
		return nil, nil, refuse("sprint %s is already %s", fl.sprint(), st)
	}
	var open []string
	for _, f := range fl.features() {
		if st := f.Str("status"); st != "completed" && st != "cancelled" {
			open = append(open, f.Str("id")+" "+st)
		}
	}
	if len(open) > 0 {
		return nil, nil, refuse("the finalizer starts when every feature is completed or cancelled: %s", strings.Join(open, ", "))
	}
	if env.Finalize == nil {
		return nil, nil, refuse("finalize --check is not available in this build")
	}
	fins, err := env.Finalize(env.Root)
	if err != nil {
		return nil, nil, err
	}
	nerr := len(errorsOnly(fins))
	res := &CloseResult{Findings: nerr}
	now := env.now()
	fin := contract.ObjAt("finalizer")
	if fin == nil {
		fin = NewObj()
	}
	choice := ""
	switch {
	case in.Sink != nil:
		choice = "sink"
	case in.Archive:
		choice = "archive"
	default:
		if at, err := time.Parse(TimeLayout, fin.Str("asked_at")); err == nil && !now.Before(at.Add(FinalizeDefaultAfter)) {
			choice, res.Default = "archive", true
			fin.With("decided_by", "default_72h")
		}
	}
	if choice == "" {
		// Step 3: ask.
		err := env.update(rep, func(tx *Tx) error {
			c, rel, err := env.loadContract(fl)
			if err != nil {
				return err
			}
			changed := false
			if st := c.Str("status"); st != "finalizing" {
				rep.did("contract status %s → finalizing", firstNonEmpty(st, "(none)"))
				c.With("status", "finalizing")
				changed = true
			}
			if fin.Str("asked_at") == "" {
				c.With("finalizer", fin.With("asked_at", env.stamp()))
				rep.did("contract.finalizer.asked_at = %s (no answer within 72 h → b, archive only)", env.stamp())
				changed = true
			}
			if !changed {
				return nil
			}
			return tx.WriteJSON(rel, c)
		})
		if err != nil {
			return nil, nil, err
		}
		res.Step = "asked"
		res.Message = finalizingMessage(fl.sprint(), nerr, len(fl.features()))
		rep.Notes = append(rep.Notes, res.Message)
		rep.OK = true
		return res, rep, nil
	}
	if choice == "sink" {
		out, err := sinkPipeline(env, *in.Sink, rep)
		if err != nil {
			return nil, nil, err
		}
		res.Pipeline, res.Version = in.Sink.ID, out.version
	}
	status := map[string]string{"sink": "sunk", "archive": "closed"}[choice]
	err = env.update(rep, func(tx *Tx) error {
		c, rel, err := env.loadContract(fl)
		if err != nil {
			return err
		}
		fin.With("decision", choice).With("decided_at", env.stamp())
		if fin.Str("decided_by") == "" {
			fin.With("decided_by", "user")
		}
		if res.Pipeline != "" {
			fin.With("pipeline_id", res.Pipeline).With("pipeline_version", res.Version)
		}
		rep.did("contract status %s → %s (finalizer decision %s, by %s)", firstNonEmpty(c.Str("status"), "(none)"), status, choice, fin.Str("decided_by"))
		c.With("status", status).With("finalizer", fin)
		if err := tx.WriteJSON(rel, c); err != nil {
			return err
		}
		return env.closeOut(tx, rep)
	})
	if err != nil {
		return nil, nil, err
	}
	res.Step = status
	res.Message = sprintDoneMessage(fl.sprint(), res, env.H())
	rep.Notes = append(rep.Notes, res.Message)
	rep.OK = true
	return res, rep, nil
}

// closeOut resets the runtime and the pool at the end of a sprint (§4.9).
func (env *Env) closeOut(tx *Tx, rep *Report) error {
	rt, err := tx.readObj("runtime_state.json")
	if err != nil {
		return err
	}
	rep.did("runtime_state.mode %s → idle, current_sprint and current_project_path null", rt.Str("mode"))
	rt.With("mode", "idle").With("current_sprint", nil).With("current_project_path", nil).
		With("pending_user_replies", []any{}).With("last_heartbeat", env.stamp())
	if err := tx.WriteJSON(relRuntime, rt); err != nil {
		return err
	}
	pool, err := tx.readObj("session_pool.json")
	if err != nil {
		return err
	}
	if n := len(pool.ObjAt("active").Keys()); n > 0 {
		rep.did("session_pool.active cleared (%d sessions)", n)
	} else {
		rep.did("session_pool.active is empty")
	}
	pool.With("active", NewObj())
	return tx.WriteJSON(relPool, pool)
}

// finalizingMessage is the 【Sprint finalizing】 message (docs/protocol.md §5
// message table, §9.2 step 3).
func finalizingMessage(sprint string, findings, features int) string {
	check := "finalize --check 全部通过"
	if findings > 0 {
		check = fmt.Sprintf("finalize --check 有 %d 处未通过(沉淀为 pipeline 前需补录)", findings)
	}
	return fmt.Sprintf(`【Sprint finalizing】%s

%d 个 feature 已全部完成或取消;%s。

请选择:
a. 沉淀为 pipeline(新建 v1.0.0,或在已有 pipeline 上计一次运行 / 升版本)
b. 仅归档(closed)
c. 先看抽象草稿再决定

回复 a、b 或 c;72 小时内未回复按 b 处理。`, sprint, features, check)
}

// sprintDoneMessage is the 【Sprint 完成】 message (§9.2 step 6).
func sprintDoneMessage(sprint string, res *CloseResult, h string) string {
	outcome := "已归档(closed)"
	if res.Step == "sunk" {
		outcome = fmt.Sprintf("已沉淀为 %s v%s", res.Pipeline, res.Version)
	} else if res.Default {
		outcome = "72 小时未回复,按默认 b 归档(closed)"
	}
	return fmt.Sprintf("【Sprint 完成】%s\n\n%s。记录保留在 %s。", sprint, outcome, h)
}
