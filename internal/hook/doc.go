// Package hook is harness-hook: the one binary that answers every Claude
// Code hook event for a sprint workspace (docs/hooks.md; docs/protocol.md
// §4.6, §11; testdata/sprints/README.md §7; testdata/corpus/README.md §1, §3.0, §5).
//
// One call: Run reads the whole stdin payload (never closing it early),
// decodes it leniently (unknown fields ignored, tool_input kept raw),
// dispatches on --event (what `harness init-feature` registers) or else the
// payload's hook_event_name (a mismatch is logged and --event wins), prints
// exactly one JSON object on stdout, valid against the contract schema's
// #/$defs/forEvent.<Event>, appends one JSON Lines record to
// <root>/.harness/logs/hook.log, and exits 0.
//
// Workspace: root = --root > HARNESS_ROOT > nearest folder holding .harness/
// above the payload's cwd; feature = --feature > FEATURE_ID > a cwd inside
// .harness/features/<F>/ (never .harness/.current_agent); sprint = --sprint >
// SPRINT_ID > feature_list.json. Outside a workspace the Bash command policy
// still applies and the workspace rules do not.
//
// Events:
//
//	SessionStart   additionalContext: feature, sprint, root; handoff.md of a
//	               resumed session; context_snapshot.md; AGENTS.md; tooling.md;
//	               the guard rules and `harness phase complete F`; ≤ 9,500
//	               UTF-16 units, truncated by priority with markers. Fills an
//	               empty session_id.txt.
//	PreToolUse     Bash → bashguard.Decide (+ path guard in a workspace, +
//	               allow-once); Edit/Write/MultiEdit/NotebookEdit →
//	               pathguard.CheckTool; other tools → {}. Block = deny with
//	               reason (what, rule id, way forward); Warn = additionalContext
//	               with no permissionDecision. Never "allow" or "ask". Past a
//	               hard Reset limit every call but the Reset's own is denied
//	               (reset.hard-limit).
//	Stop           checks 0–2b, then records.CheckPhase (3–10); block =
//	               {"decision":"block","reason"}; after 7 blocks in a row for a
//	               session: allow with systemMessage, record stop_forced_incomplete.
//	SubagentStop   logged, allowed ({}).
//	UserPromptSubmit, PostToolUse, PostToolUseFailure
//	               {} or additionalContext with the Reset instruction (once).
//	PreCompact     automatic compaction in a Generator session blocked
//	               (reset.compaction-blocked) unless it recovers a failed
//	               request, the Reset is done or the sprint allows it.
//	every other    logged, {} (SessionEnd, Notification, SubagentStart,
//	               PermissionRequest, unknown names).
//
// Monitoring (docs/protocol.md §8.1, monitor.go): in a Generator session
// every SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PreCompact
// and Stop call measures the context tokens (the transcript's end), retries
// and age, records them in claude_code_context_state.json when they change
// (PreToolUse only a new trigger or the telling) and in the hook.log record
// (monitor). A transcript, state file or rules.yaml that cannot be read is
// logged and measures nothing new; it never changes a guard decision.
//
// # Failure policy
//
// The exit status is always 0: exit 1 fails open, and a JSON answer plus
// exit 0 is the portable form (docs/hooks.md §2, §9). Panics are recovered.
// What the hook answers when it cannot decide, per event, is the table
// failurePolicy (failpolicy.go); docs/hook-failure-policy.md renders the
// same rows, and TestFailurePolicyDocMatchesCode keeps the two equal.
package hook
