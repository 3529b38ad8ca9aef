package codelex

import (
	"reflect"
	"testing"
)

// TestAnalyzeTcl: Tcl is read command by command; exec, spawn, open "|…",
// file delete/rename/copy/attributes, open for writing, and the scripts of
// eval/uplevel/control/Tk/expect bodies and `[…]` count; a braced word given
// to any other command, a comment, or a string that is printed is data.
func TestAnalyzeTcl(t *testing.T) {
	u := UnknownWord
	for _, c := range []lexCase{
		{Tcl, `exec rm -rf build`, []string{"argv:rm -rf build"}},
		{Tcl, `spawn -noecho ssh box`, []string{"argv:ssh box"}},
		{Tcl, `puts [exec rm -rf build]`, []string{"argv:rm -rf build"}},
		{Tcl, `set out "files: [exec rm -rf build]"`, []string{"argv:rm -rf build"}},
		{Tcl, `puts {exec rm -rf build}`, nil},
		{Tcl, `puts "exec rm -rf build"`, nil},
		{Tcl, "# exec rm -rf build\nputs ok", nil},
		{Tcl, "# a comment \\\nexec rm -rf build\nputs ok", nil},
		{Tcl, `set x {[exec rm -rf build]}`, nil},
		{Tcl, `exec ls | grep -v x > out.txt`, []string{"argv:grep -v x", "argv:ls", "write:out.txt"}},
		{Tcl, `exec make 2>>build.log`, []string{"append:build.log", "argv:make"}},
		{Tcl, `exec sh << {rm -rf build}`, []string{"argv:sh", "sh:rm -rf build"}},
		{Tcl, `exec cat << {rm -rf build}`, []string{"argv:cat"}},
		{Tcl, `set c rm; set d build; exec $c -rf $d`, []string{"argv:rm -rf build"}},
		{Tcl, `exec rm -rf $env(HOME)`, []string{"argv:rm -rf " + u}},
		{Tcl, `exec {*}[list git push --force]`, []string{"argv:git push --force"}},
		{Tcl, `set cmd "rm -rf build"; exec {*}$cmd`, []string{"argv:rm -rf build"}},
		{Tcl, `exec [string reverse mr] -rf build`, []string{"argv:rm -rf build"}},
		{Tcl, `exec [format %s%s r m] -rf build`, []string{"argv:rm -rf build"}},
		{Tcl, `exec [binary decode base64 cm0=] -rf build`, []string{"argv:rm -rf build"}},
		{Tcl, `exec \x72m -rf build`, []string{"argv:rm -rf build"}},
		{Tcl, `exec [lindex $argv 0] -rf build`, nil},
		{Tcl, `set f [open "|rm -rf build" r]`, []string{"argv:rm -rf build"}},
		{Tcl, `set f [open |[list sh] w]; puts $f {rm -rf build}; close $f`, []string{"argv:sh", "sh:rm -rf build"}},
		{Tcl, `set f [open |cat w]; puts $f {rm -rf build}`, []string{"argv:cat"}},
		{Tcl, `set f [open notes.md w]; puts $f hi`, []string{"write:notes.md"}},
		{Tcl, `set f [open log.txt a]`, []string{"append:log.txt"}},
		{Tcl, `set f [open log.txt {WRONLY APPEND CREAT}]`, []string{"append:log.txt"}},
		{Tcl, `set f [open notes.md]; gets $f line`, nil},
		{Tcl, `set f [open notes.md r]`, nil},
		{Tcl, `file delete -force build`, []string{"rmtree:build", "tree:build"}},
		{Tcl, `file delete -force -- a b`, []string{"rmtree:a", "rmtree:b", "tree:a", "tree:b"}},
		{Tcl, `file delete build.log`, []string{"delete:build.log"}},
		{Tcl, `file rename -force a b`, []string{"tree:a", "write:b"}},
		{Tcl, `file copy src dst`, []string{"write:dst"}},
		{Tcl, `file mkdir out`, []string{"write:out"}},
		{Tcl, `file link -symbolic ln target`, []string{"link:ln->target"}},
		{Tcl, `file attributes run.sh -permissions 0777`, []string{"chmod:run.sh:777"}},
		{Tcl, `file attributes run.sh -permissions rwxrwxrwx`, []string{"chmod:run.sh:777"}},
		{Tcl, `file attributes run.sh -permissions a+rwx`, []string{"chmod:run.sh:777"}},
		{Tcl, `file attributes run.sh -permissions 0755`, []string{"chmod:run.sh:755"}},
		{Tcl, `file exists build`, nil},
		{Tcl, `eval {exec rm -rf build}`, []string{"argv:rm -rf build"}},
		{Tcl, `eval exec rm -rf build`, []string{"argv:rm -rf build"}},
		{Tcl, `set s {exec rm -rf build}; eval $s`, []string{"argv:rm -rf build"}},
		{Tcl, `uplevel #0 {file delete -force build}`, []string{"rmtree:build", "tree:build"}},
		{Tcl, `uplevel 1 exec rm -rf build`, []string{"argv:rm -rf build"}},
		{Tcl, `if {[file exists build]} { exec rm -rf build } else { puts none }`, []string{"argv:rm -rf build"}},
		{Tcl, `if {[exec rm -rf build] eq ""} {puts ok}`, []string{"argv:rm -rf build"}},
		{Tcl, `while {$i < 3} { exec touch x$i; incr i }`, []string{"argv:touch " + u}},
		{Tcl, `foreach d {a b} { file delete -force $d }`, []string{"rmtree:" + "?", "tree:?"}},
		{Tcl, `proc clean {} { exec rm -rf build }`, []string{"argv:rm -rf build"}},
		{Tcl, `catch {exec rm -rf build} err`, []string{"argv:rm -rf build"}},
		{Tcl, `try { exec rm -rf build } on error {e} { puts $e } finally { exec git push -f }`, []string{"argv:git push -f", "argv:rm -rf build"}},
		{Tcl, `after 100 {exec rm -rf build}`, []string{"argv:rm -rf build"}},
		{Tcl, `switch -- $x { a { exec rm -rf build } default { puts no } }`, []string{"argv:rm -rf build"}},
		{Tcl, `namespace eval ns { exec rm -rf build }`, []string{"argv:rm -rf build"}},
		{Tcl, `apply {{} { exec rm -rf build }}`, []string{"argv:rm -rf build"}},
		{Tcl, `button .b -text Clean -command {exec rm -rf build}`, []string{"argv:rm -rf build"}},
		{Tcl, `button .b -text {exec rm -rf build}`, nil},
		{Tcl, `expect { "yes" { exec rm -rf build } eof { puts done } }`, []string{"argv:rm -rf build"}},
		{Tcl, `expect -re {\$ $} { send "ls\r" }`, nil},
		{Tcl, `rename exec run; run rm -rf build`, []string{"argv:rm -rf build"}},
		{Tcl, `interp alias {} zap {} exec rm -rf; zap build`, []string{"argv:rm -rf build"}},
		{Tcl, `::exec rm -rf build`, []string{"argv:rm -rf build"}},
		{Tcl, `set f [open /tmp/x.tcl w]; puts $f {exec rm -rf build}; close $f; source /tmp/x.tcl`, []string{"argv:rm -rf build", "write:/tmp/x.tcl"}},
		{Tcl, `source lib.tcl`, nil},
		{Tcl, `while 1 { exec sleep 5 & }`, []string{"argv:sleep 5", "fork:exec &"}},
		{Tcl, `while 1 { fork }`, []string{"fork:fork"}},
		{Tcl, `for {} {1} {} { spawn sleep 9 }`, []string{"argv:sleep 9", "fork:spawn"}},
		{Tcl, `for {set i 0} {$i < 3} {incr i} { exec sleep 1 & }`, []string{"argv:sleep 1"}},
		{Tcl, `while 1 { exec sleep 5 }`, []string{"argv:sleep 5"}},
		{Tcl, "exec rm \\\n  -rf build", []string{"argv:rm -rf build"}},
		{Tcl, `exec rm -rf "build dir"`, []string{"argv:rm -rf build dir"}},
		{Tcl, `puts [expr {1 + 2}]`, nil},
	} {
		got := summary(Analyze(c.lang, c.code, Options{}))
		if !reflect.DeepEqual(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%s %q:\n got  %q\n want %q", c.lang, c.code, got, c.want)
		}
	}
}

// TestTclPrintedAndArgv: what puts prints to stdout, and $argv.
func TestTclPrintedAndArgv(t *testing.T) {
	c := Analyze(Tcl, `puts "rm -rf build"; puts stderr oops; puts -nonewline {git push -f}`, Options{})
	if c.Printed == nil || *c.Printed != "rm -rf build\ngit push -f" {
		t.Fatalf("printed %v", c.Printed)
	}
	got := summary(Analyze(Tcl, `exec {*}$argv`, Options{Argv: []string{"rm", "-rf", "build"}, ArgvKnown: true}))
	if want := []string{"argv:rm -rf build"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("argv: got %q want %q", got, want)
	}
}

// TestTclBounds: deep nesting and huge eval'd text are marked truncated,
// never read as harmless.
func TestTclBounds(t *testing.T) {
	deep := ""
	for i := 0; i < 40; i++ {
		deep = "if 1 {" + deep + "}"
	}
	if c := Analyze(Tcl, deep, Options{}); !c.Truncated {
		t.Fatalf("40 nested bodies not truncated")
	}
	if c := Analyze(Tcl, "if 1 { if 1 { if 1 { exec rm -rf x } } }", Options{}); c.Truncated || len(c.Execs) != 1 {
		t.Fatalf("3 nested bodies: truncated=%v execs=%v", c.Truncated, c.Execs)
	}
}

func FuzzTcl(f *testing.F) { fuzzLang(f, Tcl, fuzzSeeds[Tcl]...) }
