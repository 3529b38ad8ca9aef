package shell

import (
	"reflect"
	"testing"
)

// TestAwkScan: system(), print | "CMD" and "CMD" | getline are shell
// strings; print/printf > / >> "FILE" are file writes; patterns and other
// literals are data (testdata/corpus/README.md §2.1 Interpreters, §3.3).
func TestAwkScan(t *testing.T) {
	cases := []struct {
		code   string
		cmds   []string
		writes []AwkWrite
	}{
		{`BEGIN{system("rm -rf build")}`, []string{"rm -rf build"}, nil},
		{`BEGIN{print "rm -rf /" | "sh"}`, []string{"sh"}, nil},
		{`BEGIN{"rm -rf /tmp/x" | getline; print}`, []string{"rm -rf /tmp/x"}, nil},
		{`BEGIN{c="rm -rf build"; system(c)}`, []string{"rm -rf build"}, nil},
		{`BEGIN{c="rm -rf " "build"; system(c)}`, []string{"rm -rf build"}, nil},
		{`BEGIN{f="spec/x"; print "x" > f}`, nil, []AwkWrite{{Path: "spec/x"}}},
		{`{system("rm -rf " $1)}`, []string{"rm -rf $__awk_value"}, nil},
		{`BEGIN{printf "" > ".harness/feature_list.json"}`, nil, []AwkWrite{{Path: ".harness/feature_list.json"}}},
		{`{print $1 > "schemas/x.json"}`, nil, []AwkWrite{{Path: "schemas/x.json"}}},
		{`{print $1 >> "log.txt"}`, nil, []AwkWrite{{Path: "log.txt", Append: true}}},
		{`{ if ($1 > "a") print $2 }`, nil, nil},
		{`{print ($1 > 2)}`, nil, nil},
		{`/rm -rf/ {print}`, nil, nil},
		{`{print "system(\"rm -rf x\")"}`, nil, nil},
		{`$3 > 100 {print $1}`, nil, nil},
	}
	for _, tc := range cases {
		got := AwkScan(tc.code)
		if !reflect.DeepEqual(got.Commands, tc.cmds) || !reflect.DeepEqual(got.Writes, tc.writes) {
			t.Errorf("%s: got %+v, want cmds %q writes %+v", tc.code, got, tc.cmds, tc.writes)
		}
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-F:", "{print}", "f"}, []string{"{print}"}},
		{[]string{"-v", "x=1", "BEGIN{}"}, []string{"BEGIN{}"}},
		{[]string{"-f", "prog.awk", "data"}, nil},
		{[]string{"-e", "BEGIN{a}", "--source=BEGIN{b}"}, []string{"BEGIN{a}", "BEGIN{b}"}},
	} {
		if got := AwkPrograms(tc.args); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("AwkPrograms(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// TestAwkCommandsAreWalked: the commands awk hands to sh are invocations.
func TestAwkCommandsAreWalked(t *testing.T) {
	for _, cmd := range []string{
		`awk 'BEGIN{system("rm -rf build")}'`,
		`gawk 'BEGIN{system("rm -rf build")}'`,
		`busybox awk 'BEGIN{system("rm -rf build")}'`,
		`awk -F: 'BEGIN{print "x" | "rm -rf build"}'`,
		`awk -v c='rm -rf build' 'BEGIN{system(c)}'`,
		`awk 'BEGIN{system(c)}' c='rm -rf build'`,
	} {
		r := Parse(cmd, Options{})
		inv := find(t, r, "rm")
		if len(inv.Args) != 2 || inv.Args[1].Value != "build" {
			t.Errorf("%s: rm args %v", cmd, values(inv))
		}
	}
	r := Parse(`awk '/rm -rf/ {print}' log`, Options{})
	for _, inv := range r.Invocations {
		if inv.Program == "rm" {
			t.Errorf("awk pattern walked as a command: %v", progs(r))
		}
	}
}

// TestAwkScannedOnce: each command an awk program hands to sh is one
// invocation (the program is scanned by one implementation), the text
// printed into a shell is that shell's script, and awk string escapes
// (octal, hex, \") are decoded.
func TestAwkScannedOnce(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want int // rm invocations
	}{
		{`awk 'BEGIN{system("rm -rf build")}'`, 1},
		{`mawk 'BEGIN{system("rm -rf build"); system("rm -rf build")}'`, 1},
		{`awk 'BEGIN{print "rm -rf build" | "sh"}'`, 1},
		{`nawk 'BEGIN{print("rm -rf build") | "/bin/bash -s"}'`, 1},
		{`awk 'BEGIN{print "echo hi" | "sh"; print "rm -rf build" | "sh"}'`, 1},
		{`original-awk 'BEGIN{"rm -rf build" | getline x}'`, 1},
		{`gawk 'BEGIN{print "x" |& "rm -rf build"}'`, 1},
		{`awk 'BEGIN{system("r\155 -rf build")}'`, 1},
		{`gawk 'BEGIN{system("r\x6d -rf build")}'`, 1},
		{`busybox awk -e 'BEGIN{system("rm -rf build")}'`, 1},
		{`awk 'BEGIN{print "rm -rf build"}'`, 0},
		{`awk 'BEGIN{print "rm -rf build" > "out.sh"}'`, 0},
	} {
		r := Parse(c.cmd, Options{})
		n := 0
		for _, inv := range r.Invocations {
			if inv.Program == "rm" {
				n++
				if len(inv.Args) != 2 || inv.Args[1].Value != "build" {
					t.Errorf("%s: rm args %v", c.cmd, values(inv))
				}
			}
		}
		if n != c.want {
			t.Errorf("%s: %d rm invocations, want %d: %v", c.cmd, n, c.want, progs(r))
		}
	}
	s := AwkScan(`BEGIN{print "a" | "sh"; print "b" | "sh"; print $1 | "cat"}`)
	if want := map[string]string{"sh": "a\nb\n"}; !reflect.DeepEqual(s.Input, want) {
		t.Errorf("Input = %q, want %q", s.Input, want)
	}
}
