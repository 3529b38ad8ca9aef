package ops

import (
	"github.com/superagent-harness/harness/internal/validate"
	"github.com/superagent-harness/harness/internal/workspace"
)

// EngineValidate is a Validator running internal/validate's `harness
// validate` rules (testdata/sprints/README.md §5).
func EngineValidate(root string) ([]Finding, error) { return convert(validate.Validate(root)) }

// EngineValidateOverlay is an OverlayValidator running the same rules as
// EngineValidate on root with overlay and appends applied, the layout walk
// limited to .harness/ (validate.Options.HarnessOnly: a change under
// .harness/ cannot change the findings about the rest of the sprint root),
// and the eval_log pass started from its cache (validate.Options.EvalCache:
// the lines checked before are not checked again); evalSize ≥ 0 is the
// eval_log snapshot (validate.Options.EvalSize); ledger is
// validate.Options.Ledger.
func EngineValidateOverlay(root string, overlay, appends map[string][]byte, evalSize int64, ledger *workspace.Provenance) ([]Finding, error) {
	opts := validate.Options{Overlay: overlay, Appends: appends, HarnessOnly: true, EvalCache: true, Ledger: ledger}
	if evalSize >= 0 {
		opts.EvalSize = &evalSize
	}
	return convert(validate.ValidateWith(root, false, opts))
}

// EngineFinalize is a Validator running `harness finalize --check`
// (testdata/sprints/README.md §5 and §6).
func EngineFinalize(root string) ([]Finding, error) { return convert(validate.FinalizeCheck(root)) }

func convert(r *validate.Report, err error) ([]Finding, error) {
	if err != nil {
		return nil, err
	}
	out := make([]Finding, 0, len(r.Findings))
	for _, f := range r.Findings {
		out = append(out, Finding{File: f.File, Line: f.Line, Pointer: f.Pointer, Rule: f.Rule, Severity: f.Severity, Message: f.Message})
	}
	return out, nil
}
