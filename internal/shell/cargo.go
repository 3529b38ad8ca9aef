package shell

import (
	"strings"
)

// cargoRunners walks the programs a cargo run starts from its
// configuration (testdata/corpus/README.md §9.2 "programs that run a
// command from an option"): `--config KEY=VALUE` at any level and the
// environment forms CARGO_TARGET_<TRIPLE>_RUNNER, CARGO_BUILD_RUSTC_WRAPPER,
// CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER and RUSTC_WRAPPER. A target runner
// starts as `RUNNER… BINARY ARGS…` for cargo run, test and bench, a rustc
// wrapper as `WRAPPER rustc ARGS…` for every build (checked with cargo
// 1.95 and a touch marker: runner=["touch","m"], runner="touch m" and the
// environment variable all ran). The value is a TOML string (split on
// blanks, as cargo does) or an array of strings; each is judged as the
// command it starts, one word per element.
func (w *walker) cargoRunners(f *frame, st *state, c cmdCtx) {
	var vals []string
	for _, kv := range c.cmd.AllValues("", "config") {
		k, v, ok := strings.Cut(kv, "=")
		if ok && cargoRunnerKey(strings.TrimSpace(k)) {
			vals = append(vals, strings.TrimSpace(v))
		}
	}
	for k, v := range c.env {
		if strings.HasPrefix(k, "CARGO_TARGET_") && strings.HasSuffix(k, "_RUNNER") ||
			k == "CARGO_BUILD_RUSTC_WRAPPER" || k == "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER" || k == "RUSTC_WRAPPER" {
			vals = append(vals, v)
		}
	}
	for _, v := range vals {
		if argv := cargoArgv(v); len(argv) > 0 {
			w.runWords(f, st, knownWords(argv...), c.env, nil, nil, "cargo runner")
		}
	}
}

// cargoRunnerKey reports a cargo configuration key whose value is a program
// cargo starts: target.<triple|cfg(…)>.runner and build.rustc-wrapper /
// build.rustc-workspace-wrapper (keys as TOML dotted keys, quotes dropped).
func cargoRunnerKey(k string) bool {
	k = strings.ReplaceAll(strings.ReplaceAll(k, `"`, ""), "'", "")
	switch k {
	case "build.rustc-wrapper", "build.rustc-workspace-wrapper":
		return true
	}
	return strings.HasPrefix(k, "target.") && strings.HasSuffix(k, ".runner")
}

// cargoArgv is the argv of a cargo program value: a TOML array of strings
// (`["rm","-rf","b"]`), a quoted string split on blanks (`"sh -x"`), or a
// bare value split on blanks (the environment form).
func cargoArgv(v string) []string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		var out []string
		for _, e := range strings.Split(v[1:len(v)-1], ",") {
			if e = strings.TrimSpace(e); len(e) >= 2 && (e[0] == '"' || e[0] == '\'') && e[len(e)-1] == e[0] {
				out = append(out, e[1:len(e)-1])
			} else if e != "" {
				out = append(out, e)
			}
		}
		return out
	}
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	return strings.Fields(v)
}
