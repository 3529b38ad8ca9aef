package shell

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind says what a program does with its arguments, as far as the guards
// need to know (testdata/corpus/README.md §2.1 "data", §2.3 wrappers, §3.3 writers,
// §9.1 unknown programs).
type Kind uint8

const (
	// KindTool is a known program whose effects are judged per subcommand
	// or not on its operands (git, docker, make, go, npm …).
	KindTool Kind = iota
	// KindData: the arguments are data; it runs nothing and writes no
	// operand (echo, printf, true, test, getent, dpkg -L …).
	KindData
	// KindRead reads or inspects the paths among its operands (cat, less,
	// grep, diff, stat, sha256sum …).
	KindRead
	// KindWrite writes, creates or deletes some of its operands or option
	// values; the path guard knows which.
	KindWrite
	// KindExec runs its remaining words as a command, after its options
	// and Pos operands (nohup, nice, timeout DURATION, chroot DIR …).
	KindExec
	// KindRun runs a command or a shell string in a way of its own (ssh,
	// xargs, find -exec, su -c, watch, docker exec …).
	KindRun
	// KindShell is a POSIX-style shell (its -c script and stdin script are
	// shell code).
	KindShell
	// KindInterp is an interpreter of another language (python, node,
	// perl, ruby, php, lua …).
	KindInterp
)

// Program is one row of the program table: what the guards know about a
// program, looked up by its identity (Identity). Rows are data: every
// option grammar any guard needs lives here, once.
type Program struct {
	// Name is the canonical (lower-case) program name.
	Name string
	// Names are other names with the same grammar, space-separated
	// ("gsed", "gtar bsdtar").
	Names string
	// Synonyms are other names of this very subcommand (space-separated):
	// the program does the same thing under them (`git stage` is `git
	// add`, `git send-pack` is the plumbing of `git push`), so the parse
	// records the subcommand by Name (Command.Sub), and every rule of Name
	// applies.
	Synonyms string
	// Kind is what the program does with its arguments.
	Kind Kind
	// Opts is the option grammar: of the whole command line, or of the
	// words before the subcommand when Subs is set.
	Opts OptSpec
	// Pos is, for KindExec, the number of operands before the command
	// (timeout DURATION CMD, chroot DIR CMD, taskset MASK CMD).
	Pos int
	// Lookup lists, for KindExec, the short letters (one-letter words) and
	// long names after which the program runs nothing: a lookup or an
	// operation on an existing process ("v V" for command -v/-V).
	Lookup string
	// DashDash is, for KindExec, true when the command follows a "--"
	// (`op run -- CMD`, `lxc exec NAME -- CMD`).
	DashDash bool
	// Chdir lists the options (letters or long names) whose value is the
	// directory the program's command runs in (`env -C DIR`, `bwrap
	// --chdir DIR`, `unshare --wd=DIR`): the command's relative targets
	// resolve there, and the shell's own directory stays (walker.inDir).
	Chdir string
	// Subs are the subcommands (the first operand names one), each a row
	// of its own; nil for a program without subcommands.
	Subs []Program
	// Default names the subcommand row whose grammar reads the words when
	// the first operand names no subcommand (ruff before 0.5 ran `ruff
	// --fix src` as `ruff check --fix src`); "" keeps that operand as an
	// unknown subcommand.
	Default string
	// Runs says which of the program's arguments are commands it runs
	// (option values or operands that are a shell command string or a
	// command with its arguments); the walker judges each as the command it
	// runs (tableRuns). The zero value: none.
	Runs RunSpec
	// Writes says which of the program's words name files it writes, for
	// programs whose writes are plain on the command line (Command.Written:
	// the path guard and the disk family read it). The zero value: none.
	Writes WriteSpec
}

// RunSpec describes the arguments of a program (or subcommand) that are
// commands it runs (testdata/corpus/README.md §2.3, §9.2 "shell strings in
// options"): `nodemon --exec S`, `su -c S`, `concurrently S S…`,
// `watch CMD…`, `mosh HOST -- CMD…`. One walker reads it (tableRuns).
type RunSpec struct {
	// Shell lists options (letters or long names, space-separated) whose
	// value is a shell command string (`-c`, `--exec`, `--command`).
	Shell string
	// Argv lists options after which the remaining words are a command
	// and its arguments (`nix develop -c CMD…`, `wsl -e CMD…`).
	Argv string
	// Operands is what the operands are, after the first Skip of them.
	Operands RunOperands
	// Skip is the number of operands before the command (a host, a lock
	// file); a "--" right after them is skipped too.
	Skip int
	// Prefix lists words (space-separated) that mark a Shell option value,
	// a shell-string operand or (with Stdin) a line of a known stdin as a
	// shell command string after them: "!" for vi/ex `-c '!CMD'` and ed's
	// `!CMD`, "shell" for gdb `-ex 'shell CMD'`, "SYSTEM:" for socat;
	// other values are the program's own commands; a '_' in one stands for
	// a blank (lldb's "platform_shell"), and one written "sh[ell]" is a
	// word that may be abbreviated as the program allows (at least "sh",
	// at most "shell", compared case-sensitively: sqlite3's ".sh[ell]
	// .sy[stem]", which 3.40 runs as `.sh CMD` and `.sys CMD`). "" = every
	// value.
	Prefix string
	// Mods lists the program's own command modifiers that may stand before
	// a Prefix and leave it the command that runs, in the program's
	// abbreviation notation "sil[ent]" (at least "sil", at most "silent"),
	// each optionally followed by "!": vim's `:silent !CMD`, `:sil! !CMD`,
	// `:noautocmd keepalt !CMD` run CMD through the shell as `:!CMD` does
	// (testdata/corpus/README.md §9.2).
	Mods string
	// Stdin: the lines of a known stdin script that start with a Prefix
	// are shell command strings (`ed f <<< '!CMD'`), and its Calls, Langs
	// and Pipe commands run as they do in a Shell option value.
	Stdin bool
	// DashDash: only the operands after a "--" are the command
	// (`onchange GLOB -- CMD…`, `reflex -r RE -- CMD…`).
	DashDash bool
	// Remote: the command runs on another machine or in a container: its
	// paths are not the workspace's (Elsewhere).
	Remote bool
	// Verbs maps the program's own command words after an Argv option (or
	// starting one of its own commands, with Split) to the command they do
	// ("VERB=PROG ARGS…", comma-separated): cmake -E remove_directory
	// deletes trees as `rm -r -f` does, lftp's `rm` never prompts.
	Verbs string
	// Split: a Shell option value and a known stdin (with Stdin) are lists
	// of the program's own commands, one per line or separated by ";",
	// each matched by Prefix and Verbs on its own (`lftp -c 'open h;
	// !rm -rf b'`).
	Split bool
	// VerbsRemote: the commands of Verbs act on another machine (lftp's
	// remote rm): their paths are not the workspace's (Elsewhere).
	VerbsRemote bool
	// Prog lists options (letters or long names, space-separated) whose
	// value is a program the command starts, with the operands after "--"
	// as its arguments (`start-stop-daemon --start --exec /bin/rm -- -rf d`).
	Prog string
	// PerFile lists options (letters or long names, space-separated) whose
	// value is a program the command runs once for each file it searches,
	// with that file as its argument (`rg --pre CMD PATTERN PATH…` runs CMD
	// PATH): the walker runs it with the search operands (grep-style: the
	// operands after the pattern, all of them when a -e/-f/--regexp/--file
	// option gives the pattern, "." when there is none).
	PerFile string
	// Calls lists functions of the program's own language whose first
	// string argument is a shell command string, wherever a call of one
	// appears in a Shell option value, a shell-string operand or a known
	// stdin (with Stdin): vim's `call system("CMD")`, octave's
	// `system("CMD")`, gnuplot's `system "CMD"`, emacs's `(shell-command
	// "CMD")`. Entries are comma-separated lists of names; an entry
	// NAME=PROG ARGS… makes the call's arguments the operands of that
	// command (cmake's `file(REMOVE_RECURSE DIR)` is `rm -r -f DIR`), and
	// NAME+=PROG ARGS… does so for its first argument only when a second
	// one (not nil, false or 0) follows (emacs's `(delete-directory D t)`);
	// NAME@N runs its Nth argument instead of its first (sqlite3's
	// edit(TEXT, EDITOR) runs `EDITOR TMPFILE` with the shell: edit@2);
	// NAME< and NAME| run the rest of a first argument that starts with
	// '<' or '|', a file name that is a command (gnuplot 5.4 reads `plot
	// '< CMD'` from CMD and writes `set output '|CMD'` into it); a name
	// may be written "p[lot]" for the abbreviations the program takes.
	// Names inside double-quoted strings are text (codeCalls).
	Calls string
	// Code lists options whose value is code of a language the guard does
	// not lex (Guile, Racket, Elixir, Erlang, PowerShell …): its candidate
	// commands (codeCandidates: the text as a command line, shell escapes,
	// string literals not printed, argv runs of literals) are judged as
	// run, and so are its Calls (unknowncode.go).
	Code string
	// Langs maps the program's own commands that run code of a language
	// the guard lexes to that interpreter ("KEY=PROG ARGS…",
	// comma-separated): in a Shell option value or a shell-string operand,
	// a line starting with KEY (after ':' and '+') runs PROG ARGS with the
	// rest of the line as one more word (vim's `py3 CODE` is `python3 -c
	// CODE`, gdb's `python CODE`, lldb's `script CODE`, nvim's `lua CODE`).
	Langs string
	// Source lists options whose value is a script file of the program's
	// own commands (vim -S FILE): when the command makes its text known (a
	// process substitution, a file written earlier), each line is read as
	// a Shell option value is.
	Source string
	// As is the command a subcommand does to its operands (rclone purge
	// DIR is rm -r -f DIR); operands naming a remote (NAME:PATH) are
	// elsewhere and left out, and a --dry-run does nothing.
	As string
	// Pipe lists the program's own commands (in Prefix's abbreviation
	// notation) whose text after the first '|' is a shell command: the rest
	// of the line, or of the quoted word when the '|' opens one. An entry
	// ending in '!' takes a file argument "!CMD" instead: the rest of the
	// line after a blank and the '!' (ed(1) `w !CMD`, `r !CMD`, `e !CMD`;
	// vim's `:w !CMD`, `:r !CMD`; GNU ed 1.19 and vim 9.0 ran each here). gdb's
	// `pipe CMD | SHELL` and `| CMD | SHELL` ("|" in the list); sqlite3's
	// `.output |CMD ARGS…`, `.once '|CMD'`, `.import '|CMD' TABLE`, `.read
	// '|CMD'` (sqlite3 .help: "If FILE begins with '|' then it is a
	// command"); psql's `\o |CMD`, `\g |CMD`, `\w |CMD` (psql(1) "the
	// entire remainder of the line is taken to be the command").
	Pipe string
	// PipeOpts lists options (letters or long names) whose value, when it
	// starts with '|', is a shell command the output is piped into (psql
	// -o '|CMD', psql(1) "equivalent to the command \o").
	PipeOpts string
	// Inline lists the bytes that start one of the program's own commands
	// anywhere in a line, outside single quotes: the line is read as one
	// line from each (psql's backslash, psql(1) "Meta-Commands": `select 1
	// \g |CMD`, `select 1; \! CMD`).
	Inline string
	// Keys names options whose value is KEY=VALUE and the keys whose VALUE
	// is a shell command: "OPTS:KEY KEY…" (apt-get -o
	// 'APT::Update::Pre-Invoke::=CMD', apt.conf(5) "shell commands ...
	// invoked using /bin/sh"); keys are compared case-insensitively, a
	// trailing "::" (apt's list append) dropped.
	Keys string
	// Address: the program's own command lines may start with a line
	// address, skipped before Prefix and Pipe are matched (ed(1) and vim
	// ranges: `1,$w !CMD`, `$r !CMD`, `%!CMD`, `'a,'b!CMD`, `/re/w !CMD`).
	Address bool
	// Backquotes: in a line that starts with an Inline byte, text in
	// backquotes outside single quotes is a shell command whose output
	// takes its place (psql(1) "Meta-Commands": "text that is enclosed in
	// backquotes (`) is taken as a command line that is passed to the
	// shell"; psql 15 ran `\set x `+"`CMD`"+` and `\echo `+"`CMD`"+` here).
	Backquotes bool
	// Config lists options whose value is a file of the program's own
	// options, one a line (curl -K FILE: long option names with or
	// without their dashes, the value after '=', ':' or blanks, bare or
	// double-quoted; short options as on the command line; '#' comments),
	// ConfigText options whose value is one such line (wget -e COMMAND, a
	// wgetrc command). When the command makes the text known (a
	// here-string on /dev/stdin or "-", a process substitution, a file
	// written earlier), the walker judges the command again with those
	// options in place of the Config and ConfigText options (configWords),
	// so the writes of its Writes and of the path guard follow them.
	Config, ConfigText string
	// ConfigNames maps the config's own names to the long options they
	// stand for ("NAME=LONG", space-separated): wgetrc's dir_prefix is
	// --directory-prefix. Names are compared without case, '_' and '-',
	// with the row's long options too (output_document, output-document).
	ConfigNames string
}

// verb returns the words of the command verb v stands for (Verbs).
func (r *RunSpec) verb(v string) ([]string, bool) {
	for _, e := range strings.Split(r.Verbs, ",") {
		if k, cmd, ok := strings.Cut(strings.TrimSpace(e), "="); ok && k == v {
			return strings.Fields(cmd), true
		}
	}
	return nil, false
}

// WriteSpec names the words of a program (or subcommand) that are files it
// writes (testdata/corpus/README.md §3.3, §9.1 "unknown programs' outputs").
type WriteSpec struct {
	// Opts lists options (letters or long names, space-separated) whose
	// value is a file the program writes (`wget -O F`, `openssl … -out F`).
	Opts string
	// Dirs lists options whose value is a directory the program writes
	// below (`cargo install --root D`, `wget -P D`).
	Dirs string
	// Mounts lists options whose value is a container mount (`-v
	// HOST:CTR[:OPTS]`, `--mount type=bind,src=HOST,dst=CTR[,readonly]`):
	// a host directory mounted read-write is handed to the container,
	// which may write below it (testdata/corpus/README.md §9.1), so it is
	// one of Written's directories; a named volume, an anonymous one and a
	// read-only mount (`:ro`, `readonly`) are not (bindSource).
	Mounts string
	// Exports lists options whose value is a BuildKit export (`docker
	// build -o`, docker-buildx-build(1) --output): a bare PATH is
	// type=local,dest=PATH, "-" is stdout, and a dest= field names the
	// directory (type=local) or file (type=tar, oci, docker) written; a
	// registry or image export without dest writes nothing here.
	Exports string
	// Last, when not 0, is the number of operands from which the last
	// operand is the output: 1 for ffmpeg (inputs are -i values: `ffmpeg
	// -i IN OUT`), 2 for sox (`sox IN… OUT`).
	Last int
	// Operand is the 1-based index of an operand that is a directory the
	// program creates and writes below (`git submodule add URL PATH`: 2).
	Operand int
	// All: every operand is a file the program writes (`git
	// checkout-index -f -- F…`).
	All bool
	// First: the first operand is a file the program opens for writing,
	// creating it (sqlite3's database).
	First bool
	// Unless lists options (letters or long names) under which the
	// program writes none of these files (`git merge-file -p`: stdout).
	Unless string
	// If lists options (letters or long names) without which the program
	// writes none of these files: a checker that fixes in place only when
	// asked (`codespell -w`, `typos --write-changes`).
	If string
	// Tree: the program rewrites its operands in place, each a file or a
	// directory of which it rewrites files below (a formatter's `fmt
	// DIR`); Command.Trees returns them, not Written. A Go package pattern
	// `D/...` is the tree D.
	Tree bool
	// Here, with Tree: without an operand the program rewrites the tree of
	// the directory it runs in (`deno fmt`, `codespell -w`).
	Here bool
	// Pairs lists options (letters or long names) after which, with All,
	// the operands come in pairs INFILE OUTFILE and only OUTFILE is
	// written (`dos2unix -n IN OUT`); an option of Singles switches back
	// to writing each operand in place (`dos2unix -n a b -o c`). A last
	// INFILE without its OUTFILE is judged written.
	Pairs, Singles string
	// Lines lists the program's own commands (space-separated, in
	// RunSpec.Prefix's abbreviation notation) whose last word is a file
	// they write, in operands and lines of a known stdin (sqlite3 `.output
	// F`, `.once F`, `.save F`, `.backup F`; 3.40 wrote F for .o .on .sav
	// .bac .cl .log .t here, not for "stdout", "stderr", `.log off`, nor
	// for a '|' word, which pipes into a command: WriteSpec.lineFile).
	Lines string
	// Edits, for an editor, lists its own commands (in RunSpec.Prefix's
	// abbreviation notation) that write the edited files, its operands,
	// when they name no file of Lines (vim's `:w`, `:wq`, `:x`, `:wa`), and
	// those whose effect the guard does not follow (`:normal ZZ`,
	// `:execute`, `:source`). With Edits the operands are written unless
	// the editor's script is known to its end, or to one of Ends, without
	// one of them (Command.EditsOperands): `vim -es -c 'w! build/x' -c q
	// SKILL.md` only reads SKILL.md. Lines then also reads the script's
	// commands as the editor does: after ':', '+', a range and RunSpec.Mods,
	// a '!' after the name, '|' between commands, and `:w !CMD` names no
	// file.
	Edits string
	// Ends lists the editor's commands that end its script (vim's q[uit],
	// qa[ll], cq[uit], and wq, x[it] — which also write, by Edits).
	Ends string
	// Script lists options under which a known stdin is the rest of the
	// editor's script after its option and +CMD commands (vim -e, -E: Ex
	// mode), "*" always (ex); without it the editor is interactive once
	// its commands are done, and may write anything it edits.
	Script string
	// ReadOnly lists options (letters or long names) under which the
	// First operand is only read (sqlite3 -readonly, -deserialize: the
	// database is opened read-only or loaded into memory).
	ReadOnly string
	// URI: the First operand and the Strings files may be SQLite URI
	// filenames (`file:PATH?QUERY`, `file:///abs/PATH`): the file is PATH
	// (percent-decoded), read only with mode=ro or immutable=1, and no
	// file at all with mode=memory or for ":memory:" and "".
	URI bool
	// Strings lists phrases of the program's own language (comma-separated,
	// compared case-insensitively, blanks matching any run of blanks)
	// after which the next single-quoted string literal is a file the
	// statement writes, in the same texts as Lines (sqlite3's SQL:
	// `writefile('F', …)`, `VACUUM INTO 'F'`, `ATTACH DATABASE 'F'`).
	Strings string
	// Fixed are the files the program writes whatever its operands name,
	// space-separated ("~/" the home directory, a relative name below the
	// directory the command runs in, a name ending in "/" a directory
	// written below): the claude CLI's own configuration. With Scope, it
	// is "VALUE:FILE…;VALUE:FILE…" and the last Scope option's value picks
	// the entry (the one with an empty VALUE when no Scope option is
	// given; every entry's files for a value that names none of them or
	// that the guard cannot read).
	Fixed string
	// Scope lists the options (letters or long names) whose value picks
	// the entry of Fixed (`claude mcp add -s project|user|local`).
	Scope string
	// Skip, with All, is the number of leading operands that are not
	// files (chmod's MODE, chown's OWNER), none when an option of NoSkip
	// is given (`chmod --reference=R FILE…`).
	Skip int
	// NoSkip lists the options (letters or long names) that take the
	// place of the Skip operands.
	NoSkip string
	// Meta: the program changes the files' metadata (mode, owner, ACL),
	// not their data: a write of a protected file for the path guard
	// (testdata/corpus/README.md §3.2 "any write"), no data written to a
	// block device for the disk family.
	Meta bool
	// Backup is how the program names the backup copy it makes of a file
	// it replaces or edits in place (Command.Backups): a backup that lands
	// on a protected name is a write of it (`mv -b -S .md x SKILL` makes
	// SKILL.md).
	Backup BackupSpec
	// Ext: each operand FILE is replaced by a file beside it (siblings):
	// FILE+SUFFIX, or FILE without SUFFIX when undoing (an option of Undo,
	// or a program name in UndoNames). SUFFIX is the last value of an
	// option of ExtOpts, else the program name's entry of Ext
	// ("NAME=SUFFIX", space-separated; a bare entry for the other names):
	// gzip's ".gz bzip2=.bz2 …", -S/--suffix, -d. Not with an option of
	// Opts (zstd -o FILE writes FILE instead).
	Ext, ExtOpts, Undo, UndoNames string
	// Multi, with Ext and Last: the siblings are written for a single
	// operand or, under an option of Multi, for every operand; otherwise
	// the Last operand is the output (lz4 IN OUT, lz4 -m FILE…).
	Multi string
	// Ed: the command's known stdin is an ed(1) script, which decides what
	// is written (EdWrites: `w FILE`, a bare `w` the default file, the
	// first operand); without a known stdin (a terminal, `< FILE`) the
	// first operand is judged written.
	Ed bool
	// EnvDirs lists environment variables (space-separated) whose value is
	// a directory the program writes below, the environment form of a Dirs
	// option (cargo's CARGO_TARGET_DIR for --target-dir). An entry
	// VAR@OPTS (OPTS: letters or long names, comma-separated) counts only
	// when one of those options is given (npm's npm_config_prefix is the
	// directory `npm install -g` installs into: "npm_config_prefix@g,global").
	EnvDirs string
	// Beside: the program writes files whose names the guard does not
	// derive in each operand's directory (Written's dirs: javac writes
	// NAME.class beside its source for every class the source declares),
	// and below each directory of the path lists it searches for more
	// inputs of its own (Finds), which it processes the same way. Finds
	// holds groups of options (letters or long names) separated by ";":
	// the values (filepath.ListSeparator-separated lists; a .jar, .zip or
	// "*" entry is no directory) of the first group given count, else the
	// environment variable FindsEnv's, else the directory the command runs
	// in ("."): javac compiles the sources a source names from
	// -sourcepath, else the class path (-cp, CLASSPATH, "."). None of this
	// with an option of Instead (javac -d DIR: everything goes below DIR,
	// a Dirs option), no Finds directories with an option of NoFind
	// (javac -implicit:none), none at all with NoFind "*" (a compressor
	// writes FILE.gz beside FILE and searches for nothing).
	Beside                           bool
	Finds, FindsEnv, Instead, NoFind string
	// EnvUnless lists environment variables (space-separated) that, set to
	// a non-empty value, move what the program writes for its operands
	// (All, Tree, Operand, Cwd) to its EnvDirs: compileall writes its .pyc
	// files below PYTHONPYCACHEPREFIX instead of beside the sources.
	EnvUnless string
	// Temp: the program makes the file (or, with -d, the directory) whose
	// name it prints, as mktemp does (mktempName: a TEMPLATE, -p DIR,
	// --tmpdir, -t, and $TMPDIR of the command's environment).
	Temp bool
	// Cwd names the outputs the program writes under a default name when
	// no option or operand names them, in the directory it runs in (or
	// CwdIn's): gcc's a.out, `go test -c`'s PKG.test, `npm init`'s
	// package.json, `git format-patch`'s NNNN-SUBJECT.patch, `hg clone
	// URL`'s directory. It is a list of groups separated by "|", each a
	// list of entries "COND:NAMES" separated by ";": the first entry of a
	// group whose COND holds gives that group's NAMES (none: nothing is
	// written). COND is a space-separated list of options (letters or long
	// names, at any level of the command; NAME=VALUE: with that value) of
	// which one is given, "#N": N operands or more, or "@WORD": the first
	// operand is WORD (the command word of a row without Subs: `pip
	// download`); an empty COND always holds. NAMES are
	// space-separated templates: a plain name ("a.out"), a name ending in
	// "/" a directory created and written below ("src/"), "*" a file whose
	// name the guard does not derive (UnknownName), "{base}" in a name
	// once for each operand: its base name without its last extension
	// (`gcc -c src/x.c` writes x.o: "{base}.o"; "*" for an operand whose
	// name is no package or file name, and without operands), "{url}" the
	// name of the clone of the first operand (CloneName), "{begin}" the
	// NAME of each `begin MODE NAME` line of a known stdin (uuencode(5);
	// "*" when the input is an operand or an unknown stdin), "$VAR" the
	// value of the environment variable VAR when the command's environment
	// sets it (history -w writes $HISTFILE).
	Cwd string
	// CwdIn lists where Cwd's outputs go instead of the directory the
	// program runs in: options (letters or long names, at any level) whose
	// value is that directory (`npm --prefix D init`, `git format-patch -o
	// D`), "#N" the Nth operand when given (`cargo init PATH`).
	CwdIn string
	// OperandFile is the 1-based index of an operand that is
	// a file the program writes (`uniq IN OUT`, `xxd IN OUT`, `python -m
	// json.tool IN OUT`: 2).
	OperandFile int
	// Append lists options (letters or long names) under which the files
	// are appended to, not replaced (`sponge -a F`): Command.Appends.
	Append string
	// Remove lists options under which the program removes its input
	// operands once it has written them elsewhere (`zip -m`, zstd --rm;
	// an entry NAME=VALUE matches the option with that value: 7z's
	// -sdel is "s=del"; "*" always: gzip), unless an option of Keep is
	// given (gzip -k). The inputs are the operands after the First one
	// (the archive). Command.Removed.
	Remove, Keep string
	// Extract lists options (as Remove; "*" always) under which the
	// program extracts an archive into a directory (`cpio -i`, `7z x`,
	// `python -m zipfile -e A DIR`): the last value of an ExtractDir
	// option, else the ExtractOperand'th operand (1-based; 0 none), else
	// the directory the command runs in. Command.Extracted.
	Extract, ExtractDir string
	ExtractOperand      int
	// Remote is how an operand names a file on another machine or in a
	// container, which is not a file here (RemoteOperand): the files of
	// Last, All, First and OperandFile that name one are left out.
	Remote RemoteForm
	// OutSuffix: every long option whose name ends in OutSuffix names, in
	// its value after the last ':', a directory the program writes below
	// (protoc --go_out=DIR, --cpp_out=opts:DIR: "_out").
	OutSuffix string
	// Assign: a -NAME=VALUE word that the grammar does not know as an
	// option taking a value is an assignment (exiftool -TAG=VALUE, -all=)
	// and turns the writes on as an option of If does.
	Assign bool
	// Levels: the options of Opts and Dirs may stand at any level of the
	// command (`npm --prefix D install`, `npm install --prefix D`).
	Levels bool
	// Edited: an editor writes the operands it edits (not +CMD
	// operands), unless an option of ReadOnly is given (vim -R, -M) or its
	// script is known not to write them (Command.EditsOperands).
	Edited bool
	// TreeIf lists options without which the Tree operands are not
	// rewritten, while the rest of the spec still writes (eslint --fix;
	// its -o FILE report is written either way).
	TreeIf string
	// Through names the program the words after "--" are handed to (cargo
	// fmt -- ARGS runs rustfmt ARGS): they are not operands of this one,
	// and that program's Unless applies too (`cargo fmt -- --check`).
	Through string
	// Grammar names an argument grammar of the program's own that decides
	// what it writes ("ar": GNU ar's operation letters; "pax": -r, -w, -rw;
	// "rename": perl and util-linux rename; "split", "csplit": the
	// pieces' names): Command.Written reads it (grammarWrites), in one
	// place.
	Grammar string
}

// RemoteForm is how a program's operands name a remote file
// (WriteSpec.Remote).
type RemoteForm uint8

const (
	// RemoteNone: every operand is a local path.
	RemoteNone RemoteForm = iota
	// RemoteHost: `host:path`, `user@host:path`, `scp://…` (scp,
	// RemoteOperand); a colon after a slash is part of a local path.
	RemoteHost
	// RemoteColon: any operand with a colon (docker cp CONTAINER:PATH,
	// kubectl cp [NS/]POD:PATH).
	RemoteColon
)

// BackupSpec describes a program's backup names (WriteSpec.Backup). The
// backup of FILE is Prefix + FILE's directory + BasePrefix + FILE's base
// name + the suffix: the value of the last Suffix option, else (without a
// Prefix or BasePrefix value) the Env variable's value, else Default. With
// Star, a suffix holding "*" is the whole name instead, each "*" replaced
// by FILE as given, relative to the directory the command runs in (GNU
// sed 4.9 and perlrun -i[EXT]: `sed -i'bk/*' d/f` renames d/f to bk/d/f,
// checked with strace). Without Star a suffix holding "/" is Default
// (coreutils 9: `cp -S /x a b` makes b~, checked).
type BackupSpec struct {
	// On lists the options (letters or long names) that turn backups on
	// (`-b`, `--backup[=CONTROL]`); a non-empty Suffix, Prefix or
	// BasePrefix value turns them on too (coreutils 9: `cp -S .X a b`
	// makes b.X, checked). Always: the program may make one without them
	// (patch's default --backup-if-mismatch: a hunk applied with fuzz),
	// unless an option of Off is given.
	On     string
	Always bool
	Off    string
	// Suffix, Prefix and BasePrefix list the options whose value is that
	// part of the name (`-S .md`, `--suffix=.md`; patch -B PREFIX, -Y
	// PREFIX).
	Suffix, Prefix, BasePrefix string
	// Default is the suffix without a Suffix option ("~"; patch ".orig"),
	// Env the environment variable that replaces it (SIMPLE_BACKUP_SUFFIX).
	Default, Env string
	// Star: a "*" in the suffix is a name pattern (above).
	Star bool
	// Control is the environment variable naming the version control
	// when no On option gives one (VERSION_CONTROL): "none" and "off",
	// there or as an On option's value (`--backup=none`), make no backup
	// even with a suffix (coreutils 9, checked: `cp --backup=none -S .md
	// a b` and `VERSION_CONTROL=none cp -b a b` make none).
	Control string
}

// fixed returns the files and directories of ws.Fixed for the options p.
func (ws *WriteSpec) fixed(p ParsedOpts) (files, dirs []string) {
	seen := map[string]bool{}
	add := func(list string) {
		for _, f := range strings.Fields(list) {
			if seen[f] {
				continue
			}
			seen[f] = true
			if strings.HasSuffix(f, "/") {
				dirs = append(dirs, strings.TrimSuffix(f, "/"))
			} else {
				files = append(files, f)
			}
		}
	}
	if ws.Scope == "" {
		add(ws.Fixed)
		return files, dirs
	}
	val, given := "", false
	for i := range p.Opts {
		if o := &p.Opts[i]; o.HasValue && optNamed(p, o, ws.Scope) {
			val, given = o.Value, true
		}
	}
	entries := strings.Split(ws.Fixed, ";")
	for _, e := range entries {
		k, list, _ := strings.Cut(e, ":")
		if k == val && (!given || val != "") {
			add(list)
			return files, dirs
		}
	}
	for _, e := range entries {
		_, list, _ := strings.Cut(e, ":")
		add(list)
	}
	return files, dirs
}

// RunOperands is what a program does with its operands (RunSpec).
type RunOperands uint8

const (
	// OperandsData: the operands are not commands.
	OperandsData RunOperands = iota
	// OperandsShell: each operand is a shell command string
	// (`concurrently 'a' 'b'`, `hyperfine 'a' 'b'`).
	OperandsShell
	// OperandsLine: the operands joined by blanks are one shell command
	// string (`watch rm -rf x`, `watchexec -- make test`).
	OperandsLine
	// OperandsArgv: the operands are a command and its arguments
	// (`mosh HOST -- CMD…`, `flock FILE CMD…`).
	OperandsArgv
	// OperandsCode: each operand is code of a language the guard does not
	// lex, read as RunSpec.Code values are (`crystal eval CODE`).
	OperandsCode
)

// any reports whether the spec names any command.
func (r *RunSpec) any() bool {
	return r.Shell != "" || r.Argv != "" || r.Operands != OperandsData || r.Stdin || r.Calls != "" || r.Prog != "" || r.PerFile != "" || r.Code != "" || r.As != "" || r.Source != "" || r.PipeOpts != "" || r.Config != "" || r.ConfigText != "" || r.Keys != ""
}

// keyCommand returns the shell command of an option value KEY=VALUE when
// KEY is one of the keys of r.Keys (opts: the options of r.Keys).
func (r *RunSpec) keyCommand(v string) (string, bool) {
	_, keys, _ := strings.Cut(r.Keys, ":")
	for len(keys) > 0 && keys[0] == ':' {
		keys = keys[1:]
	}
	k, cmd, ok := strings.Cut(v, "=")
	if !ok {
		return "", false
	}
	k = strings.TrimSuffix(strings.TrimSpace(k), "::")
	for _, key := range strings.Fields(keys) {
		if strings.EqualFold(key, k) {
			return cmd, true
		}
	}
	return "", false
}

// lines returns the lines of text in which the program reads its own
// commands: one per line, and with Inline one more from each Inline byte
// outside single quotes.
func (r *RunSpec) lines(text string) []string {
	ls := strings.Split(text, "\n")
	if r.Inline == "" {
		return ls
	}
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		start, quoted := 0, false
		for i := 0; i < len(l); i++ {
			switch {
			case l[i] == '\'':
				quoted = !quoted
			case !quoted && i > start && strings.IndexByte(r.Inline, l[i]) >= 0:
				out = append(out, l[start:i])
				start = i
			}
		}
		out = append(out, l[start:])
	}
	return out
}

// pipeCommand returns the shell command of line t when t is one of the
// commands of r.Pipe with a '|' after it: the rest of t after the first
// '|', or up to the closing quote when the '|' opens a quoted word
// (`.once '|CMD'`).
func (r *RunSpec) pipeCommand(t string) (word, cmd string, ok bool) {
	word = t
	if i := strings.IndexAny(t, " \t"); i >= 0 {
		word = t[:i]
	}
	var args string
	mark := byte(0)
	if strings.HasPrefix(t, "|") && hasName(r.Pipe, "|") {
		word, args, mark = "|", t[1:], '|'
	}
	for rest := r.Pipe; rest != "" && mark == 0 && word != ""; {
		var e string
		e, rest, _ = strings.Cut(rest, " ")
		m := byte('|')
		if l := len(e) - 1; l > 0 && e[l] == '!' {
			e, m = e[:l], '!' // ed's and vim's `w !CMD`
		}
		if e != "|" && isMod(e, word) {
			mark, args = m, t[len(word):]
		}
	}
	if mark == 0 {
		return "", "", false
	}
	if mark == '!' {
		// the file argument is "!CMD": a blank, then the mark
		a := strings.TrimLeft(args, " \t")
		if sh, ok := strings.CutPrefix(a, "!"); ok && len(a) < len(args) {
			return word, sh, true
		}
		return word, "", false
	}
	i := -1
	for k := 0; k < len(args); k++ {
		if args[k] == '|' {
			if k+1 < len(args) && args[k+1] == '|' {
				k++ // `a || b` runs b only on failure: not a pipe (lftp)
				continue
			}
			i = k
			break
		}
	}
	if i < 0 {
		return word, "", false
	}
	if q := byte(0); i > 0 {
		if q = args[i-1]; (q == '\'' || q == '"') && (i == 1 || args[i-2] == ' ' || args[i-2] == '\t') {
			cmd, _, _ = strings.Cut(args[i+1:], string(q))
			return word, cmd, true
		}
	}
	return word, args[i+1:], true
}

// shellText returns the shell command string in v by r.Prefix (v itself
// when r has neither Prefix nor Calls) and whether there is one.
func (r *RunSpec) shellText(v string) (string, bool) {
	if r.Prefix == "" && r.Calls != "" {
		return "", false // code of the program's own language (Calls)
	}
	if r.Prefix == "" {
		return v, true
	}
	t := r.stripMods(strings.TrimLeft(v, " \t:"))
	if r.Address {
		t = stripAddress(t)
	}
	for rest := r.Prefix; rest != ""; {
		var p string
		p, rest, _ = strings.Cut(rest, " ")
		p = strings.ReplaceAll(p, "_", " ") // lldb's platform_shell is "platform shell"
		if strings.Contains(p, "[") {
			// an abbreviable word (sqlite3's .sh[ell]) ends at a blank
			word := t
			if i := strings.IndexAny(t, " \t"); i >= 0 {
				word = t[:i]
			}
			if word != "" && isMod(p, word) {
				return t[len(word):], true
			}
			continue
		}
		if len(t) >= len(p) && strings.EqualFold(t[:len(p)], p) {
			after := t[len(p):]
			if c := p[len(p)-1]; (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') && after != "" && after[0] != ' ' && after[0] != '\t' {
				continue // a word prefix (`system`) ends at a blank: SYSTEM_USER() is SQL
			}
			return after, true
		}
	}
	return "", false
}

// stripAddress returns t without a leading line address (RunSpec.Address):
// numbers, ". , ; $ % + -", marks 'x and /re/ or ?re? patterns, and the
// blanks among them.
func stripAddress(t string) string {
	i := 0
	for i < len(t) {
		switch c := t[i]; {
		case c >= '0' && c <= '9' || strings.IndexByte(".,;$%+- \t", c) >= 0:
			i++
		case c == '\'' && i+1 < len(t):
			i += 2
		case c == '/' || c == '?':
			j := strings.IndexByte(t[i+1:], c)
			if j < 0 {
				return t[i:]
			}
			i += j + 2
		default:
			return t[i:]
		}
	}
	return t[i:]
}

// stripMods returns t without the leading command modifiers of r.Mods
// (each a word, optionally with "!", followed by blanks or ':'), keeping a
// leading '+' (vim's +CMD): "+silent !x" is "+!x", "sil! :!x" is "!x".
// Without Mods, or when no modifier leads, t comes back unchanged.
func (r *RunSpec) stripMods(t string) string {
	if r.Mods == "" {
		return t
	}
	plus, rest := "", t
	if strings.HasPrefix(rest, "+") {
		plus, rest = "+", strings.TrimLeft(rest[1:], " \t:")
	}
	stripped := false
	for {
		end := strings.IndexAny(rest, " \t:!")
		if end <= 0 {
			break
		}
		word, after := rest[:end], rest[end:]
		after = strings.TrimPrefix(after, "!")
		if after == "" || !strings.ContainsAny(after[:1], " \t:") || !isMod(r.Mods, word) {
			break
		}
		rest, stripped = strings.TrimLeft(after, " \t:"), true
	}
	if !stripped {
		return t
	}
	return plus + rest
}

// isMod reports whether word is one of mods ("sil[ent] keepa[lt] …"): a
// prefix of the full name at least as long as the part before '['.
func isMod(mods, word string) bool {
	for mods != "" {
		var m string
		m, mods, _ = strings.Cut(mods, " ")
		short, long, _ := strings.Cut(m, "[")
		full := short + strings.TrimSuffix(long, "]")
		if len(word) >= len(short) && strings.HasPrefix(full, word) {
			return true
		}
	}
	return false
}

// Sub returns the subcommand row named name (or one of its Names), nil
// when there is none.
func (p *Program) Sub(name string) *Program {
	if p == nil {
		return nil
	}
	for i := range p.Subs {
		if s := &p.Subs[i]; s.Name == name || hasName(s.Names, name) || hasName(s.Synonyms, name) {
			return s
		}
	}
	return nil
}

// hasName reports whether the space-separated list names holds name.
func hasName(names, name string) bool {
	for names != "" {
		var n string
		n, names, _ = strings.Cut(names, " ")
		if n == name {
			return true
		}
	}
	return false
}

//go:generate go run gen_programs.go
//go:generate go test -run ^TestProgramIndexInSync$ -update-index .

// The index of every name of the table (rows' Name and Names), sorted, is
// generated into programs_index.go (progNames, progRows: the row of each
// name) so that a lookup costs a binary search and no start-up work;
// TestProgramIndexInSync fails when the table and the index drift.

// Lookup returns the table row of a program identity (Identity), nil for
// a program the guards do not know. A versioned name is its program
// (`python3.12`, `bash-5.2`, `gcc-12`, `perl5.36` → python, bash, gcc,
// perl), and so is a file-system variant (`mkfs.ext4` → mkfs).
func Lookup(name string) *Program {
	if p := lookupExact(name); p != nil {
		return p
	}
	base := strings.TrimSuffix(strings.TrimRight(name, "0123456789."), "-")
	if base != name && base != "" {
		if p := lookupExact(base); p != nil {
			return p
		}
	}
	if b, _, ok := strings.Cut(name, "."); ok && (b == "mkfs" || b == "fsck") {
		return lookupExact(b)
	}
	return nil
}

func lookupExact(name string) *Program {
	i := sort.SearchStrings(progNames[:], name)
	if i < len(progNames) && progNames[i] == name {
		return &programs[progRows[i]]
	}
	return nil
}

// SpecOf returns the option grammar of a program, or of its subcommand
// path when subs are given ("git", "push"): its row's Opts, or
// UnknownSpec when the table does not know the program (or the
// subcommand).
func SpecOf(name string, subs ...string) OptSpec {
	p := Lookup(name)
	for _, s := range subs {
		p = p.Sub(s)
	}
	if p == nil {
		return UnknownSpec()
	}
	return p.Opts
}

// UnknownSpec is the one option grammar of a program the table does not
// know (testdata/corpus/README.md §9.1, unknown programs): every long
// option may be one the table does not list (Partial) and no short letter
// takes a value, except that a cluster is read the only way getopt
// allows and -name=VALUE is a long option with its value (Guess).
func UnknownSpec() OptSpec { return OptSpec{Partial: true, Guess: true} }

// UnknownSubSpec is the one option grammar of a subcommand a known
// program's row does not list (`git frobnicate --opt`): like UnknownSpec
// but without Guess, and long options abbreviate (Abbrev) as the known
// subcommands' parsers (git parse-options, getopt_long) let them.
func UnknownSubSpec() OptSpec { return OptSpec{Partial: true, Abbrev: true} }

// Identity is the program a command word runs, as the guards compare it
// (testdata/corpus/README.md §2.2, §9.1): the directory part and a trailing ".exe" are
// dropped and the name is case-folded on every OS (a case-insensitive
// file system runs `RM`, `NOHUP`, `BASH.EXE`, `ſudo` as rm, nohup, bash,
// sudo). Git's helper binaries are not mapped here (see gitHelper).
func Identity(word string) string {
	n := ProgramName(word)
	if ascii(n) {
		n = strings.ToLower(n)
	} else {
		n = foldName(n)
	}
	if len(n) > 4 && strings.HasSuffix(n, ".exe") {
		n = n[:len(n)-4]
	}
	return n
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// foldName applies simple Unicode case folding (each rune to the
// lower-case form of the smallest rune of its case orbit: ſ → s, K (U+212A
// KELVIN SIGN) → k), the comparison case-insensitive file systems make.
func foldName(s string) string {
	var b strings.Builder
	for _, r := range s {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < m {
				m = f
			}
		}
		b.WriteRune(unicode.ToLower(m))
	}
	return b.String()
}

// gitHelper maps a git helper binary name (`git-push`, from
// /usr/lib/git-core/) to the git subcommand it is; "" when name is not one.
func gitHelper(name string) string {
	sub, ok := strings.CutPrefix(name, "git-")
	if !ok || sub == "" {
		return ""
	}
	if Lookup("git").Sub(sub) == nil {
		return ""
	}
	return sub
}
