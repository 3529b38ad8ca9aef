// Package ruleid is the one registry of rule ids: every id that
// `harness validate`, `harness finalize --check`, the Stop hook and
// `harness phase complete`, and harness-hook report (findings, record
// checks, deny reasons, hook.log "rule"). docs/protocol.md §14 documents
// each one; TestRegistryMatchesDocs checks the two against each other in
// both directions.
//
// The ids of the Bash command families (rules/*.yaml) and of the path rules
// (rules/paths.yaml) are data: the generators of internal/bashguard and
// internal/pathguard write them into bash_gen.go and path_gen.go here, next
// to the rule tables they generate there. A new rule id is added here (or
// to its YAML file) and to docs/protocol.md §14.
//
// The package imports nothing, so every other package may use it.
package ruleid

// Source says which part of harness reports an id (the subsections of
// docs/protocol.md §14).
type Source string

// The sources of rule ids.
const (
	// Validate: `harness validate`, and `finalize --check` (§14.1).
	Validate Source = "validate"
	// Finalize: `harness finalize --check` only (§14.2).
	Finalize Source = "finalize"
	// Stop: the Stop hook's checks and `harness phase complete` (§14.3).
	Stop Source = "stop"
	// Hook: harness-hook refusals of calls it cannot judge (§14.4).
	Hook Source = "hook"
	// Bash: the command families of rules/*.yaml (§14.5, generated).
	Bash Source = "bash"
	// Path: the path rules of rules/paths.yaml (§14.6, generated).
	Path Source = "path"
	// Preset: the rules a guard preset adds or relaxes outside a sprint
	// (rules/presets/presets.yaml, §14.7).
	Preset Source = "preset"
)

// `harness validate` (docs/protocol.md §14.1, testdata/sprints/README.md §5).
const (
	FilesRequired                    = "files.required"
	JSONParse                        = "json.parse"
	SchemaRuntimeState               = "schema.runtime_state"
	SchemaFeatureList                = "schema.feature_list"
	SchemaCheckpoint                 = "schema.checkpoint"
	SchemaSessionPool                = "schema.session_pool"
	SchemaSprintContract             = "schema.sprint_contract"
	SchemaEvalLog                    = "schema.eval_log"
	SchemaCurrentAgent               = "schema.current_agent"
	SchemaForeignCopy                = "schema.foreign-copy"
	TimeUTCZ                         = "time.utc-z"
	TimeTimestampField               = "time.timestamp-field"
	EvalJSONLParse                   = "eval.jsonl-parse"
	IDsSprintConsistent              = "ids.sprint-consistent"
	FeaturesUniqueIDs                = "features.unique-ids"
	FeaturesDependsOnExists          = "features.depends-on-exists"
	FeaturesDAGAcyclic               = "features.dag-acyclic"
	FeaturesDepsCompletedBeforeStart = "features.deps-completed-before-start"
	FeaturesNextPhasesConsistent     = "features.next-phases-consistent"
	FeaturesToolingLocked            = "features.tooling-locked"
	GatesSprintGatesApproved         = "gates.sprint-gates-approved"
	CheckpointsGateCatchAll          = "checkpoints.gate-catch-all"
	LayoutFeatureDirLocation         = "layout.feature-dir-location"
	LayoutFeatureDirFiles            = "layout.feature-dir-files"
	LayoutSessionPoolUnique          = "layout.session-pool-unique"
	LayoutCurrentAgentUnique         = "layout.current-agent-unique"
	LayoutNoFlattenedReadonly        = "layout.no-flattened-readonly"
	LayoutStaleTemp                  = "layout.stale-temp"
	LayoutNotRegular                 = "layout.not-regular"
	LayoutUnknownEntry               = "layout.unknown-entry"
	FilesSizeCap                     = "files.size-cap"
	StateLockHeld                    = "state.lock-held"
	EvalLineTooLong                  = "eval.line-too-long"
	EvalProvenance                   = "eval.provenance"
	ToolingSection6ListOnly          = "tooling.section6-list-only"
	PoolActiveConsistent             = "pool.active-consistent"
	EvalFeatureExists                = "eval.feature-exists"
	EvalSuperseded                   = "eval.superseded"
	EvalPhaseFields                  = "eval.phase-fields"
	EvalReasonNotLazy                = "eval.reason-not-lazy"
	EvalReasonMinLength              = "eval.reason-min-length"
	EvalAcceptanceResultsPresent     = "eval.acceptance-results-present"
	EvalAcceptanceResultsMatch       = "eval.acceptance-results-match"
	EvalEvidenceNotLazy              = "eval.evidence-not-lazy"
	RulesOverrides                   = "rules.overrides"
)

// `harness finalize --check` (docs/protocol.md §14.2, testdata/sprints/README.md §6).
const (
	FinalizeToolingSections           = "finalize.tooling-sections"
	FinalizeToolingReasons            = "finalize.tooling-reasons"
	FinalizeFeaturesDone              = "finalize.features-done"
	FinalizeGeneratorLogSections      = "finalize.generator-log-sections"
	FinalizeGeneratorLogKeyDecisions  = "finalize.generator-log-key-decisions"
	FinalizePhaseEvalsPresent         = "finalize.phase-evals-present"
	FinalizeCommitHash                = "finalize.commit-hash"
	FinalizeEvalReasonPresent         = "finalize.eval-reason-present"
	FinalizeCheckpointDecisionPresent = "finalize.checkpoint-decision-present"
	FinalizeNoPendingEval             = "finalize.no-pending-eval"
	FinalizeNoPendingCheckpoints      = "finalize.no-pending-checkpoints"
)

// The Stop hook and `harness phase complete` (docs/protocol.md §14.3,
// testdata/sprints/README.md §7).
const (
	StopSkip                = "stop.skip"
	StopResetException      = "stop.reset-exception"
	StopFeatureListParse    = "stop.feature-list-parse"
	StopGenlogExists        = "stop.genlog-exists"
	StopGenlogSection       = "stop.genlog-section"
	StopGenlogKeyDecisions  = "stop.genlog-key-decisions"
	StopGenlogSectionLength = "stop.genlog-section-length"
	StopEvalEntry           = "stop.eval-entry"
	StopReasonPresent       = "stop.reason-present"
	StopReasonLazy          = "stop.reason-lazy"
	StopReasonLength        = "stop.reason-length"
	StopNextPhasesDone      = "stop.next-phases-done"
	StopIOError             = "stop.io-error"
	StopLoopBound           = "stop.loop-bound"
)

// harness-hook refusals of calls it cannot judge (docs/protocol.md §14.4,
// docs/hook-failure-policy.md).
const (
	HookPayloadInvalid    = "hook.payload-invalid"
	HookBadInput          = "hook.bad-input"
	HookCommandNUL        = "hook.command-nul"
	HookCommandTooLarge   = "hook.command-too-large"
	HookInternalError     = "hook.internal-error"
	HookSprintRootMissing = "hook.sprint-root-missing"
	HookDeadline          = "hook.deadline"
	PathBadInput          = "path.bad-input"
	// The Reset enforcement of docs/protocol.md §8.1: a tool call past a
	// hard Reset limit, and an automatic compaction in a Generator session.
	ResetHardLimit         = "reset.hard-limit"
	ResetCompactionBlocked = "reset.compaction-blocked"
	// HookGuardAdmin: outside a sprint, the agent running the harness
	// commands that configure its own guard (allow, install, uninstall).
	HookGuardAdmin = "hook.guard-admin"
	// HookClientNetwork: in a launched Generator session, WebFetch or a
	// Monitor WebSocket to a host the session's sandbox does not allow (the
	// client connects itself, outside the sandbox's network proxy).
	HookClientNetwork = "hook.client-network"
)

// The rules of the standard preset (docs/protocol.md §14.7,
// rules/presets/presets.yaml): two relaxations of fs.rm-recursive-force and
// one addition.
const (
	PresetRmInProject = "preset.rm-in-project"
	PresetRmTemp      = "preset.rm-temp"
	NetPipeToShell    = "net.pipe-to-shell"
)

// ID is one registered rule id and the part of harness that reports it.
type ID struct {
	ID     string
	Source Source
}

// handwritten lists the ids declared in this file, by source.
var handwritten = []struct {
	source Source
	ids    []string
}{
	{Validate, []string{FilesRequired, JSONParse, SchemaRuntimeState, SchemaFeatureList, SchemaCheckpoint, SchemaSessionPool,
		SchemaSprintContract, SchemaEvalLog, SchemaCurrentAgent, SchemaForeignCopy, TimeUTCZ, TimeTimestampField, EvalJSONLParse,
		IDsSprintConsistent, FeaturesUniqueIDs, FeaturesDependsOnExists, FeaturesDAGAcyclic, FeaturesDepsCompletedBeforeStart,
		FeaturesNextPhasesConsistent, FeaturesToolingLocked, GatesSprintGatesApproved, CheckpointsGateCatchAll,
		LayoutFeatureDirLocation, LayoutFeatureDirFiles, LayoutSessionPoolUnique, LayoutCurrentAgentUnique,
		LayoutNoFlattenedReadonly, LayoutStaleTemp, LayoutNotRegular, LayoutUnknownEntry, FilesSizeCap, StateLockHeld, EvalLineTooLong, EvalProvenance, ToolingSection6ListOnly, PoolActiveConsistent, EvalFeatureExists, EvalSuperseded, EvalPhaseFields,
		EvalReasonNotLazy, EvalReasonMinLength, EvalAcceptanceResultsPresent, EvalAcceptanceResultsMatch, EvalEvidenceNotLazy,
		RulesOverrides}},
	{Finalize, []string{FinalizeToolingSections, FinalizeToolingReasons, FinalizeFeaturesDone, FinalizeGeneratorLogSections,
		FinalizeGeneratorLogKeyDecisions, FinalizePhaseEvalsPresent, FinalizeCommitHash, FinalizeEvalReasonPresent,
		FinalizeCheckpointDecisionPresent, FinalizeNoPendingEval, FinalizeNoPendingCheckpoints}},
	{Stop, []string{StopSkip, StopResetException, StopFeatureListParse, StopGenlogExists, StopGenlogSection,
		StopGenlogKeyDecisions, StopGenlogSectionLength, StopEvalEntry, StopReasonPresent, StopReasonLazy, StopReasonLength,
		StopNextPhasesDone, StopIOError, StopLoopBound}},
	{Hook, []string{HookPayloadInvalid, HookBadInput, HookCommandNUL, HookCommandTooLarge, HookInternalError,
		HookSprintRootMissing, HookDeadline, PathBadInput, ResetHardLimit, ResetCompactionBlocked, HookGuardAdmin, HookClientNetwork}},
	{Preset, []string{PresetRmInProject, PresetRmTemp, NetPipeToShell}},
}

// All returns every registered id once: the hand-written ones by source,
// then the generated Bash and path rule ids in their files' order.
func All() []ID {
	var out []ID
	for _, g := range handwritten {
		for _, id := range g.ids {
			out = append(out, ID{id, g.source})
		}
	}
	for _, id := range bashIDs {
		out = append(out, ID{id, Bash})
	}
	for _, id := range pathIDs {
		out = append(out, ID{id, Path})
	}
	return out
}

// Of returns the registered ids of source s, in registry order.
func Of(s Source) []string {
	var out []string
	for _, r := range All() {
		if r.Source == s {
			out = append(out, r.ID)
		}
	}
	return out
}

// Known reports whether id is a registered rule id.
func Known(id string) bool {
	for _, r := range All() {
		if r.ID == id {
			return true
		}
	}
	return false
}
