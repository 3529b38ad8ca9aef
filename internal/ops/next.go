package ops

import (
	"fmt"
	"sort"
	"strings"
)

// Blocked is a pending feature that may not start now, with every reason.
type Blocked struct {
	Feature string   `json:"feature"`
	Reasons []string `json:"reasons"`
}

// NextResult is what `harness next` prints.
type NextResult struct {
	Startable []string   `json:"startable"`
	Blocked   []Blocked  `json:"blocked"`
	Cycles    [][]string `json:"cycles"`
	Active    int        `json:"active_sessions"`
	Max       int        `json:"max_concurrent"`
	// Resets are the sessions Hermes must act on before or besides
	// starting features (a Reset due, overdue or under way, a stale
	// session); HermesReset is Hermes' own (docs/protocol.md §8).
	Resets      []FeatureReset `json:"resets"`
	HermesReset HermesReset    `json:"hermes_reset"`
}

// Next applies the start conditions of docs/protocol.md §7 (feature-isolation):
// a feature may start iff (1) every depends_on feature is completed, (2) the
// active sessions leave a slot (max_concurrent, default 2; slots are handed
// out in start order: entry features first, then priority P0..P3, then file
// order), (3) tooling_locked is true, (4) its status is pending, (5) the
// sprint is not suspended, (6) the last cp-sprint-dag entry approves it
// (§13 #51, Z11); and no revoked checkpoint from a YOLO abort is still
// unanswered (§6.1 step 6). Features on a dependency cycle are reported
// with the cycle. It changes nothing.
func Next(env *Env) (*NextResult, error) {
	fl, err := env.loadFeatureList()
	if err != nil {
		return nil, err
	}
	pool, err := env.readObj("session_pool.json")
	if err != nil {
		return nil, err
	}
	rt, err := env.readObj("runtime_state.json")
	if err != nil {
		return nil, err
	}
	res := &NextResult{Startable: []string{}, Blocked: []Blocked{}, Cycles: [][]string{}}
	res.Max = 2
	if m, ok := pool.Int("max_concurrent"); ok && m >= 1 {
		res.Max = m
	}
	active := pool.ObjAt("active")
	res.Active = len(active.Keys())

	feats := fl.features()
	byID := map[string]*Obj{}
	for _, f := range feats {
		byID[f.Str("id")] = f
	}
	res.Cycles = findCycles(feats)
	onCycle := map[string][]string{}
	for _, c := range res.Cycles {
		for _, id := range c {
			onCycle[id] = c
		}
	}
	var global []string
	if !fl.Bool("tooling_locked") {
		global = append(global, "tooling_locked is false (cp-sprint-tooling not approved)")
	}
	if rt.Str("mode") == "suspended" {
		global = append(global, "the sprint is suspended (runtime_state.mode suspended); reply `resume` first")
	}
	if ok, why := env.gateApproved(fl, GateDAG); !ok {
		global = append(global, "cp-sprint-dag is not approved: "+why+" (Z11)")
	}
	var revoked []string
	for _, f := range feats {
		for _, cp := range checkpointsOf(f) {
			if cp.Str("status") == "revoked" {
				revoked = append(revoked, cp.Str("id"))
			}
		}
	}
	if len(revoked) > 0 {
		global = append(global, "YOLO abort unsettled: revoked checkpoints "+strings.Join(revoked, ", ")+" await the user (docs/protocol.md §6.1)")
	}

	type cand struct {
		f     *Obj
		entry bool
		prio  string
		idx   int
	}
	var cands []cand
	for i, f := range feats {
		st := f.Str("status")
		if st != "pending" && st != "planning" {
			continue
		}
		id := f.Str("id")
		var reasons []string
		if st != "pending" {
			reasons = append(reasons, "status is "+st+", not pending")
		}
		if active.Has(id) {
			reasons = append(reasons, "already has a session in session_pool.active")
		}
		if c, ok := onCycle[id]; ok {
			reasons = append(reasons, "on a dependency cycle "+strings.Join(append(c, c[0]), " → "))
		}
		for _, d := range f.Strs("depends_on") {
			g := byID[d]
			switch {
			case g == nil:
				reasons = append(reasons, fmt.Sprintf("depends on %s, which is not in feature_list", d))
			case g.Str("status") != "completed":
				p, _ := g.Int("phase")
				reasons = append(reasons, fmt.Sprintf("depends on %s (status %s, phase %d), not completed", d, g.Str("status"), p))
			}
		}
		reasons = append(reasons, global...)
		if len(reasons) > 0 {
			res.Blocked = append(res.Blocked, Blocked{Feature: id, Reasons: reasons})
			continue
		}
		cands = append(cands, cand{f: f, entry: len(f.Strs("depends_on")) == 0, prio: f.Str("priority"), idx: i})
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.entry != b.entry {
			return a.entry
		}
		pa, pb := prioRank(a.prio), prioRank(b.prio)
		if pa != pb {
			return pa < pb
		}
		return a.idx < b.idx
	})
	free := res.Max - res.Active
	for _, c := range cands {
		id := c.f.Str("id")
		if free > 0 {
			res.Startable = append(res.Startable, id)
			free--
			continue
		}
		res.Blocked = append(res.Blocked, Blocked{Feature: id, Reasons: []string{
			fmt.Sprintf("no free session slot (%d active + %d starting of max_concurrent %d)", res.Active, len(res.Startable), res.Max)}})
	}
	rv, err := Resets(env)
	if err != nil {
		return nil, err
	}
	res.Resets, res.HermesReset = nonNilResets(rv.Attention()), rv.Hermes
	return res, nil
}

func prioRank(p string) int {
	switch p {
	case "P0":
		return 0
	case "P1":
		return 1
	case "P2":
		return 2
	case "P3":
		return 3
	}
	return 2
}

// findCycles returns the dependency cycles (strongly connected components
// with more than one feature, or a self-dependency), each in file order.
func findCycles(feats []*Obj) [][]string {
	idx := map[string]int{}
	for i, f := range feats {
		idx[f.Str("id")] = i
	}
	n := len(feats)
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	counter := 0
	out := [][]string{}
	var strong func(v int)
	strong = func(v int) {
		index[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		onStack[v] = true
		for _, d := range feats[v].Strs("depends_on") {
			w, ok := idx[d]
			if !ok {
				continue
			}
			if index[w] < 0 {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			self := false
			for _, d := range feats[v].Strs("depends_on") {
				if d == feats[v].Str("id") {
					self = true
				}
			}
			if len(comp) > 1 || self {
				sort.Ints(comp)
				var ids []string
				for _, c := range comp {
					ids = append(ids, feats[c].Str("id"))
				}
				out = append(out, ids)
			}
		}
	}
	for v := 0; v < n; v++ {
		if index[v] < 0 {
			strong(v)
		}
	}
	return out
}

// StartBlockers applies every start condition of `harness next` to one
// feature about to get a Claude Code session (docs/protocol.md §7, §6.1
// step 6, Z11): the reasons it may not start now, none when it may. `harness
// session start` and `harness launch` both ask it, so no session starts
// that `next` would hold back (a suspended sprint, an unsettled YOLO abort,
// the DAG gate, dependencies, a full pool). A feature whose session is
// being replaced (its pool entry resetting after a feature Reset, or failed
// after a crash, §8.1; with replace, any recorded session: `session start`
// with a new id records the new session of a Reset) keeps its slot and is
// held back only by a suspended sprint and the DAG gate: a running feature
// may reach its next phase during an unsettled abort.
func StartBlockers(env *Env, fid string, replace bool) ([]string, error) {
	fl, err := env.loadFeatureList()
	if err != nil {
		return nil, err
	}
	f, err := fl.mustFeature(fid)
	if err != nil {
		return nil, err
	}
	pool, err := env.readObj("session_pool.json")
	if err != nil {
		return nil, err
	}
	if e := pool.ObjAt("active").ObjAt(fid); e != nil || f.Str("status") != "pending" {
		switch {
		case e != nil && (replace || oneOf(e.Str("status"), []string{"resetting", "failed"})):
		case e == nil && oneOf(f.Str("status"), []string{"in_progress", "waiting_human"}):
			// a feature whose session ended without a Reset record
		case e != nil:
			return []string{fmt.Sprintf("%s already has a %s session (%s) in session_pool.active; `harness session end %s` first, or `harness session reset %s` for a Reset", fid, e.Str("status"), e.Str("session_id"), fid, fid)}, nil
		default:
			return []string{fmt.Sprintf("its status is %s, not pending", f.Str("status"))}, nil
		}
		var reasons []string
		rt, err := env.readObj("runtime_state.json")
		if err != nil {
			return nil, err
		}
		if rt.Str("mode") == "suspended" {
			reasons = append(reasons, "the sprint is suspended (runtime_state.mode suspended); reply `resume` first")
		}
		if ok, why := env.gateApproved(fl, GateDAG); !ok {
			reasons = append(reasons, "cp-sprint-dag is not approved: "+why+" (Z11)")
		}
		return reasons, nil
	}
	next, err := Next(env)
	if err != nil {
		return nil, err
	}
	for _, id := range next.Startable {
		if id == fid {
			return nil, nil
		}
	}
	for _, b := range next.Blocked {
		if b.Feature == fid {
			return b.Reasons, nil
		}
	}
	return []string{"harness next does not list it as startable"}, nil
}
