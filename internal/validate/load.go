package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	harness "github.com/superagent-harness/harness"
	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/schema"
	"github.com/superagent-harness/harness/internal/workspace"
)

// Relative paths used in findings (testdata/sprints/README.md §3).
const (
	relH              = ".harness"
	relRuntimeState   = ".harness/runtime_state.json"
	relFeatureList    = ".harness/feature_list.json"
	relSessionPool    = ".harness/session_pool.json"
	relEvalLog        = ".harness/eval_log.jsonl"
	relHermesContext  = ".harness/hermes_context_state.json"
	relLedgerFile     = ".harness/" + workspace.LedgerFile
	relClaudeContext  = ".harness/claude_code_context_state.json"
	relCurrentAgent   = ".harness/.current_agent"
	relContractsDir   = ".harness/sprint_contracts"
	relFeaturesDir    = ".harness/features"
	relLogsDir        = ".harness/logs"
	relCurrentAgentJS = ".harness/.current_agent.json"
)

// checker holds one run's inputs: every state file read once, decoded both
// generically (for schemas and the time rule) and typed (for the semantic
// rules). It never writes.
type checker struct {
	ws       *workspace.Workspace
	rep      *Report
	schemas  *schema.Set
	finalize bool
	opts     Options

	docs map[string]any // rel path → decoded JSON (json.Number), only when it parsed as an object

	fl    *workspace.FeatureList
	pool  *workspace.SessionPool
	rs    *workspace.RuntimeState
	hc    *workspace.HermesContext
	ct    *workspace.Contract
	relCT string // contract path, relative; "" when the sprint is unknown
	// schemaKey identifies the sprint's own schema copies (evalCacheKey).
	schemaKey string

	// entries are the eval_log entries the rules across lines need (sprint
	// gate checkpoints; under finalize, phase verdicts and rollback marks),
	// each reduced to the fields those rules read (keptFields); the other
	// lines are checked while the log is streamed and leave only findings.
	entries []*workspace.EvalEntry
	// lastRollback, lastPass, anchor and droppedEntries serve keepEntry
	// while streaming (indexes into entries per feature and phase value).
	lastRollback, lastPass, anchor, lastGate map[rollbackKey]int
	droppedEntries                           int
	// evalFound holds the findings at eval_log lines made while streaming.
	evalFound evalFindings
	// supersededBy maps a line N to the line of its last valid correction.
	supersededBy map[int]int
	// prov says who may have written each eval_log line.
	prov *workspace.Provenance
	// fast: eval_log lines of the fixed shape are checked by fastLine
	// (evalfast.go), in flat.
	fast bool
	flat workspace.FlatEntry
}

// embeddedSchemas is the set of the embedded schemas, compiled at most once
// per process on first use and shared by every Validate/FinalizeCheck call
// (a compiled schema is immutable and safe for concurrent use). Compiling
// the 13 schemas costs ~4 ms; `harness eval append` and the other protocol
// operations validate twice per call (before and after the staged change).
var embeddedSchemas = sync.OnceValue(func() *schema.Set { return schema.New(harness.Assets(), nil) })

// schemasFor returns the schema set for a sprint's own schema copies (see
// schema.SprintCopies): copies byte-identical to the embedded file (what
// `harness init` writes) change nothing and are dropped, so the usual sprint
// shares embeddedSchemas; only a sprint with a differing copy compiles its
// own set.
func schemasFor(own map[string][]byte) *schema.Set {
	for name, data := range own {
		if emb, err := fs.ReadFile(harness.Assets(), "schemas/"+name); err == nil && bytes.Equal(emb, data) {
			delete(own, name)
		}
	}
	if len(own) == 0 {
		return embeddedSchemas()
	}
	return schema.New(harness.Assets(), own)
}

func run(root string, finalize bool) (*Report, error) {
	return runWith(root, finalize, Options{})
}

func runWith(root string, finalize bool, opts Options) (*Report, error) {
	ws, err := workspace.Open(root)
	if err != nil {
		return nil, err
	}
	c := &checker{ws: ws, rep: &Report{}, finalize: finalize, docs: map[string]any{}, opts: opts}
	if opts.SharedLock {
		unlock, err := fsutil.RLockWithin(ws.StateLock(), SharedLockTimeout)
		var nre *fsutil.NotRegularError
		switch {
		case errors.Is(err, fs.ErrPermission), errors.As(err, &nre) && nre.Mode&fs.ModeCharDevice != 0:
			// a launched Generator's sandbox hides the lock files
			// (docs/sandbox.md §2.2: a device mounted over each, which
			// cannot be opened): its read-only validate cannot lock
			c.rep.add(Finding{File: ws.Rel(ws.StateLock()) + ".lock", Rule: ruleid.StateLockHeld, Severity: SeverityInfo,
				Message: "the workspace lock is hidden from this process (a sandboxed Generator session), so the files were read without it; a change in progress may show half-applied"})
		case err != nil:
			c.rep.add(Finding{File: ws.Rel(ws.StateLock()) + ".lock", Rule: ruleid.StateLockHeld,
				Message: "the files were read without the workspace lock, so a change in progress may show half-applied: " + err.Error()})
		default:
			defer unlock()
		}
	}
	own, foreign := schema.SprintCopies(ws.Root)
	for p, why := range foreign {
		c.rep.add(Finding{File: p, Rule: ruleid.SchemaForeignCopy, Severity: SeverityInfo,
			Message: "sprint schema copy ignored (" + why + "); the embedded harness schema is used"})
	}
	c.schemas = schemasFor(own)
	c.schemaKey = schemaKeyOf(own)
	if err := c.schemas.Err(); err != nil {
		if len(own) == 0 {
			return nil, err
		}
		c.rep.add(Finding{File: "schemas", Rule: ruleid.SchemaForeignCopy, Severity: SeverityInfo,
			Message: "sprint schema copies do not compile (" + err.Error() + "); the embedded harness schemas are used"})
		c.schemas = embeddedSchemas()
		if err := c.schemas.Err(); err != nil {
			return nil, err
		}
	}
	c.load()
	c.validateRules()
	if finalize {
		c.finalizeRules()
	}
	c.applySuperseded()
	c.rep.sortFindings()
	return c.rep, nil
}

// readJSONFile reads a JSON state file: reports json.parse on failure and
// returns the raw bytes and the decoded document (nil when unusable).
func (c *checker) readJSONFile(rel string) ([]byte, any) {
	data, err := c.readFile(c.ws.Path(filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // files.required reports it
	}
	if err != nil {
		if !tooLargeErr(err) { // files.size-cap reports it
			c.rep.add(Finding{File: rel, Rule: "json.parse", Message: "cannot read: " + err.Error()})
		}
		c.rep.add(Finding{File: rel, Rule: ruleid.JSONParse, Message: "cannot read: " + err.Error()})
		return nil, nil
	}
	doc, err := schema.Decode(data)
	if err != nil {
		c.rep.add(Finding{File: rel, Rule: ruleid.JSONParse, Message: "not valid JSON: " + err.Error()})
		return nil, nil
	}
	if _, ok := doc.(map[string]any); !ok {
		c.rep.add(Finding{File: rel, Rule: ruleid.JSONParse, Message: "not a JSON object"})
		return nil, nil
	}
	c.docs[rel] = doc
	return data, doc
}

func (c *checker) load() {
	if b, _ := c.readJSONFile(relFeatureList); b != nil {
		var fl workspace.FeatureList
		if err := json.Unmarshal(b, &fl); err == nil {
			c.fl = &fl
		}
	}
	if b, _ := c.readJSONFile(relSessionPool); b != nil {
		var p workspace.SessionPool
		if err := json.Unmarshal(b, &p); err == nil {
			c.pool = &p
		}
	}
	if b, _ := c.readJSONFile(relRuntimeState); b != nil {
		var r workspace.RuntimeState
		if err := json.Unmarshal(b, &r); err == nil {
			c.rs = &r
		}
	}
	if b, _ := c.readJSONFile(relHermesContext); b != nil {
		var h workspace.HermesContext
		if err := json.Unmarshal(b, &h); err == nil {
			c.hc = &h
		}
	}
	c.readJSONFile(relClaudeContext)
	c.readJSONFile(relCurrentAgent)
	if c.fl != nil && c.fl.Sprint != "" && !strings.ContainsAny(c.fl.Sprint, `/\`) && c.fl.Sprint != ".." {
		c.relCT = relContractsDir + "/" + c.fl.Sprint + "/contract.json"
		if b, _ := c.readJSONFile(c.relCT); b != nil {
			var ct workspace.Contract
			if err := json.Unmarshal(b, &ct); err == nil {
				c.ct = &ct
			}
		}
	}
	c.loadEvalLog()
}

func evalAt(line int) string { return fmt.Sprintf("%s:%d", relEvalLog, line) }

// Document validates a document that lives outside a sprint workspace (a
// pipeline's pipeline.yaml decoded with schema.DecodeYAML, the pipelines'
// registry.json decoded with schema.Decode) against the embedded schema
// name (schema.Pipeline, schema.PipelineRegistry). It returns one message
// per violation ("/stats/total_runs: …"); an error only when the schema set
// cannot be compiled.
func Document(name string, doc any) ([]string, error) {
	vs, err := embeddedSchemas().Validate(name, doc)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, v := range vs {
		out = append(out, v.String())
	}
	return out, nil
}
