package ops

import (
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/render"
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
	errs := errorsOnly(fins)
	nerr := len(errs)
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
		msg, err := render.FinalizingMessage(finalizingData(fl, fins, errs))
		if err != nil {
			return nil, nil, err
		}
		rep.send(msg)
		res.Message = msg.Text
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
	env.removeSandboxTempDir(rep) // the sprint is over: its sessions' caches go
	res.Step = status
	msg, err := render.SprintDoneMessage(render.SprintDone{Sprint: fl.sprint(), Outcome: status, Pipeline: res.Pipeline, Version: res.Version, Archive: env.H()})
	if err != nil {
		return nil, nil, err
	}
	rep.send(msg)
	res.Message = msg.Text
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

// finalizingChecks is the number of items of the finalizer checklist
// (docs/protocol.md §9.2).
const finalizingChecks = 9

// finalizingData is the 【Sprint finalizing】 message's data: the check
// totals (a failed item = one rule with error findings), the problems, and
// the pipeline the sprint came from (a version bump) or none (a new one).
func finalizingData(fl featureList, fins, errs []Finding) render.Finalizing {
	d := render.Finalizing{Sprint: fl.sprint(), Checks: finalizingChecks, Errors: len(errs), Infos: len(fins) - len(errs),
		Pipeline: fl.Str("pipeline_id"), Version: fl.Str("pipeline_version")}
	rules := map[string]bool{}
	for _, f := range errs {
		rules[f.Rule] = true
		if len(d.Problems) < 5 {
			d.Problems = append(d.Problems, f.String())
		}
	}
	d.Failed = min(len(rules), finalizingChecks)
	d.Passed = finalizingChecks - d.Failed
	return d
}
