package scaffold

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestArtifactPaths(t *testing.T) {
	log := "# Generator Log: f001\n\n## phase=1 plan — 2026-04-21T02:08:30Z\n\n### 产出物\n" +
		"- 子任务清单(本段)\n- `linkcheck/internal/extract/doc.go`(仅包注释)\n* linkcheck/a.go (stub)\n" +
		"1. `x/y.go` and `x/z.go`\n\n### 关键决策\n- `not/an/artifact.go`\n" +
		"## phase=2 implement — 2026-04-21T03:00:00Z\n### 产出物\n```\n- `in/fence.go`\n    ```\n- `in/fence2.go`\n```\n- `linkcheck/b.go`\n"
	got := artifactPaths([]byte(log))
	want := []string{"linkcheck/internal/extract/doc.go", "linkcheck/a.go", "x/y.go", "x/z.go", "linkcheck/b.go"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("artifactPaths = %q\nwant %q", got, want)
	}
}

func TestFindHookBin(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"PATH": dir}
	if _, err := FindHookBin("", env, dir); !errors.Is(err, ErrNoHookBin) {
		t.Fatalf("no hook anywhere: err = %v", err)
	}
	bin := filepath.Join(dir, HookBinName())
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := FindHookBin("", env, dir)
	if err != nil || got != bin {
		t.Fatalf("PATH lookup = %q, %v; want %q", got, err, bin)
	}
	got, err = FindHookBin(HookBinName(), env, dir)
	if err != nil || got != bin {
		t.Fatalf("relative --hook-bin = %q, %v; want %q", got, err, bin)
	}
	if _, err := FindHookBin(dir, env, dir); err == nil {
		t.Fatal("a directory accepted as --hook-bin")
	}
}
