package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestProgramPipes: a program's own command whose file argument starts with
// '|' runs the rest as a shell command (RunSpec.Pipe), wherever the
// program reads its own commands: operands, -cmd/-c values, a known stdin
// (heredoc, here-string, pipe) and an -init script the guard can read.
// sqlite3 3.40 checked here with a touch marker: `.once '|CMD'`, `.output
// |CMD ARGS` (the words after it joined), `.import '|CMD' T`, `.read
// '|CMD'`, the abbreviations .o .on .i .rea .sh .sy, `--bom` before the
// pipe, -cmd, stdin and -init all ran CMD; `.ONCE` and a line with a
// leading blank are not dot-commands. psql 15 checked against a
// throwaway server: `\o |CMD`, `\o '|CMD'`, `\g |CMD` and `\gx |CMD` after
// SQL on the same line, `\w |CMD`, `\copy … to program 'CMD'` and `-o
// '|CMD'` ran CMD; `-L '|CMD'` made a file of that name. The neighbours
// write or read files, or pipe nowhere.
func TestProgramPipes(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`sqlite3 :memory: ".once '|rm -rf build'" 'select 1;'`:                               verdict.Block,
		`sqlite3 app.db '.output |git push --force origin main' 'select 1;'`:                 verdict.Block,
		`sqlite3 app.db ".import '|rm -rf build' t"`:                                         verdict.Block,
		`sqlite3 app.db ".read '|git reset --hard'"`:                                         verdict.Block,
		`sqlite3 app.db '.o |rm -rf build' 'select 1;'`:                                      verdict.Block,
		`sqlite3 app.db '.on --bom |rm -rf build' 'select 1;'`:                               verdict.Block,
		`sqlite3 app.db '.sh rm -rf build'`:                                                  verdict.Block,
		`sqlite3 app.db '.sys git clean -fdx'`:                                               verdict.Block,
		`sqlite3 -cmd '.once |rm -rf build' app.db 'select 1;'`:                              verdict.Block,
		"sqlite3 app.db <<'EOF'\n.output |rm -rf build\nselect 1;\nEOF":                      verdict.Block,
		`printf '.once |rm -rf build\nselect 1;\n' | sqlite3 app.db`:                         verdict.Block,
		`sqlite3 app.db <<< '.once "|rm -rf build"'`:                                         verdict.Block,
		`sqlite3 -init <(echo '.shell rm -rf build') app.db 'select 1;'`:                     verdict.Block,
		`sqlite3 -init <(echo '.once |rm -rf build') app.db 'select 1;'`:                     verdict.Block,
		`printf '.once |rm -rf build\n' > /tmp/i.sql; sqlite3 -init /tmp/i.sql app.db .quit`: verdict.Block,

		`sqlite3 app.db '.output out.txt' 'select 1;'`:     verdict.Allow,
		`sqlite3 app.db '.once -x' 'select 1;'`:            verdict.Allow,
		`sqlite3 app.db '.once --bom out.csv' 'select 1;'`: verdict.Allow,
		`sqlite3 app.db '.excel' 'select 1;'`:              verdict.Allow,
		`sqlite3 app.db '.import data.csv t'`:              verdict.Allow,
		`sqlite3 app.db '.read schema.sql'`:                verdict.Allow,
		`sqlite3 app.db "select '.once |rm -rf build'"`:    verdict.Allow,
		`sqlite3 app.db '.ONCE |rm -rf build' 'select 1;'`: verdict.Allow,
		`sqlite3 -init <(echo '.mode csv') app.db .tables`: verdict.Allow,

		`psql -h db -c '\o |rm -rf build'`:                    verdict.Block,
		`psql -h db <<< 'select 1 \g |rm -rf build'`:          verdict.Block,
		`psql -h db <<< "\o '|git push --force origin main'"`: verdict.Block,
		`psql -h db <<< 'select 1; \gx |rm -rf build'`:        verdict.Block,
		`psql -h db <<< '\w |rm -rf build'`:                   verdict.Block,
		`psql -h db <<< "\copy t to program 'rm -rf build'"`:  verdict.Block,
		`psql -h db -o '|rm -rf build' -c 'select 1'`:         verdict.Block,
		`psql -h db <<< 'select 1 \! rm -rf build'`:           verdict.Block,
		`psql -h db -c '\o result.txt'`:                       verdict.Allow,
		`psql -h db <<< 'select 1 \g out.txt'`:                verdict.Allow,
		`psql -h db -o out.txt -c 'select 1'`:                 verdict.Allow,
		`psql -h db <<< "\copy t to 'out.csv' csv"`:           verdict.Allow,
		`psql -h db <<< "select 'a|b' \g"`:                    verdict.Allow,
		`psql -h db -c "select '\o |rm -rf build'"`:           verdict.Allow,
	})
}

// TestGitArchiveTarCommand: git archive pipes the tar stream through
// tar.<format>.command with the shell (git-archive(1) CONFIGURATION;
// checked with git 2.39 and a marker), and git-config(1) names further keys
// whose value git runs: gpg.ssh.defaultKeyCommand (run for an ssh
// signature without user.signingKey), guitool.<name>.cmd ("the shell
// command line to execute", git gui), imap.tunnel (git imap-send's
// tunnel command) and man.<tool>.path (the viewer program git help runs).
// Data keys of the same sections run nothing.
func TestGitArchiveTarCommand(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`git -c tar.tgz.command='rm -rf build; gzip -cn' archive --format=tgz HEAD > /dev/null`: verdict.Block,
		`git -c tar.tar.xz.command='git push --force; xz -c' archive --format=tar.xz HEAD`:      verdict.Block,
		`git config tar.tar.zst.command 'rm -rf build'`:                                         verdict.Block,
		`git -c gpg.ssh.defaultKeyCommand='rm -rf build' commit -S -m x`:                        verdict.Block,
		`git -c guitool.x.cmd='rm -rf build' gui`:                                               verdict.Block,
		`git -c imap.tunnel='rm -rf build' imap-send < p.patch`:                                 verdict.Block,
		`git -c man.x.path='rm -rf build' -c man.viewer=x help log`:                             verdict.Block,

		`git -c tar.tar.xz.command='xz -c' archive --format=tar.xz HEAD > a.txz`: verdict.Allow,
		`git -c tar.umask=0022 archive HEAD > a.tar`:                             verdict.Allow,
		`git -c gpg.ssh.allowedSignersFile=.signers log --show-signature`:        verdict.Allow,
		`git -c imap.host=imaps://mail.example.com imap-send < p.patch`:          verdict.Allow,
		`git -c man.viewer=less help log`:                                        verdict.Allow,
	})
}

// TestPagerAndEntrypointNeighbours: the neighbours of a program whose
// pager or output option is a shell command, already modelled (man -P,
// core.pager, GIT_PAGER, PAGER, LESSOPEN, docker --entrypoint): each
// judged as the command it runs, a harmless value allowed.
func TestPagerAndEntrypointNeighbours(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`man -P 'rm -rf build' ls`:                  verdict.Block,
		`git -c core.pager='rm -rf build' log`:      verdict.Block,
		`GIT_PAGER='git push --force' git log`:      verdict.Block,
		`PAGER='rm -rf build' man ls`:               verdict.Block,
		`LESSOPEN='|rm -rf build %s' less notes.md`: verdict.Block,
		`docker run --entrypoint=sudo alpine id`:    verdict.Block,
		`man -P less ls`:                            verdict.Allow,
		`git -c core.pager='less -R' log`:           verdict.Allow,
		`LESSOPEN='|lesspipe %s' less notes.md`:     verdict.Allow,
		`docker run --entrypoint=ls alpine -l /`:    verdict.Allow,
	})
}

// TestProgramPipesMore: more programs whose own commands pipe into a shell
// command. ftp: "If the first character of the file name is '|', the
// remainder of the argument is interpreted as a shell command" (GNU
// inetutils manual 11.5, 4.4BSD ftp(1); ftp is not installed here). lftp:
// "Some commands allow redirecting their output (cat, ls, ...) to file or
// via pipe to external command" (lftp(1); not installed). psql 15: text in
// backquotes in a backslash command's argument is run by the shell
// (psql(1) "Meta-Commands"; `\set x `+"`touch m`"+` made m here). sqlite3
// 3.40: the SQL function edit(TEXT, EDITOR) runs EDITOR through the shell
// with a temporary file name after it (`select edit('x','touch m;')` made
// m here).
func TestProgramPipesMore(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`ftp -n h <<< 'get notes.txt "|rm -rf build"'`:                       verdict.Block,
		`ftp -n h <<< 'dir . |git push --force'`:                             verdict.Block,
		`ftp -n h <<< 'put "|rm -rf build" remote.txt'`:                      verdict.Block,
		`lftp -c 'open h; cat a.txt | rm -rf build'`:                         verdict.Block,
		`lftp h <<< 'ls | git push --force'`:                                 verdict.Block,
		"psql -h db <<< '\\set x `rm -rf build`'":                            verdict.Block,
		"psql -h db -c '\\echo `git push --force`'":                          verdict.Block,
		`sqlite3 app.db "select edit('x', 'rm -rf build;')"`:                 verdict.Block,
		`sqlite3 app.db <<< "select edit(body, 'git push --force;') from t"`: verdict.Block,

		`ftp -n h <<< 'get notes.txt notes.txt'`:            verdict.Allow,
		`ftp -n h <<< 'dir . |less'`:                        verdict.Allow,
		`lftp -c 'open h; cat a.txt | gzip > a.gz'`:         verdict.Allow,
		`lftp -c 'open h; ls || echo none'`:                 verdict.Allow,
		"psql -h db <<< '\\set x `date +%s`'":               verdict.Allow,
		"psql -h db <<'EOF'\nselect '`rm -rf build`';\nEOF": verdict.Allow,
		`sqlite3 app.db "select edit('x', 'vi')"`:           verdict.Allow,
		`sqlite3 app.db "select 'edit(x, rm -rf build)'"`:   verdict.Allow,
	})
}

// TestGnuplotFilePipes: gnuplot 5.4 (installed here, checked with touch
// markers) runs an output file name starting with '|' (`set output
// '|CMD'`, `set print '|CMD'`, abbreviated `se o`, `set o`, `se pr`) and
// reads a data or script file name starting with '<' from a command
// (`plot '< CMD'`, `p`, `pl`, `splot`/`sp`, `stats`/`sta`, `load`/`l`,
// `call`/`ca`), from -e and from stdin; `set table '|CMD'` made a file of
// that name, and a '|' or '<' inside a title is text.
func TestGnuplotFilePipes(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`gnuplot -e "set terminal dumb; set output '|rm -rf build'; plot sin(x)"`: verdict.Block,
		`gnuplot -e "se o '|git push --force'; plot x"`:                           verdict.Block,
		`gnuplot -e "set print '|rm -rf build'; print 1"`:                         verdict.Block,
		`gnuplot -e "set print \"| rm -rf build\"; print 1"`:                      verdict.Block,
		`gnuplot -e "plot '< rm -rf build; echo 1 2'"`:                            verdict.Block,
		`gnuplot -e "p '<git reset --hard'"`:                                      verdict.Block,
		`gnuplot <<< "splot '< rm -rf build'"`:                                    verdict.Block,
		`gnuplot -e "load '< rm -rf build'"`:                                      verdict.Block,
		`gnuplot -e "ca '< git clean -fdx'"`:                                      verdict.Block,
		`gnuplot -e "stats '< rm -rf build'"`:                                     verdict.Block,

		`gnuplot -e "set terminal png; set output 'out.png'; plot sin(x)"`: verdict.Allow,
		`gnuplot -e "set title 'a|b'; plot x"`:                             verdict.Allow,
		`gnuplot -e "plot 'data.dat' using 1:2 title '<b>'"`:               verdict.Allow,
		`gnuplot -e "set output '|lpr'; plot x"`:                           verdict.Allow,
		`gnuplot -e "plot '< cat data.dat'"`:                               verdict.Allow,
		`gnuplot -e "set table '|rm -rf build'; plot x"`:                   verdict.Allow,
		`gnuplot -e "load 'setup.gp'"`:                                     verdict.Allow,
	})
}

// TestEditorFileCommands: ed's and vim's file argument starting with '!' is
// a shell command (ed(1): "If file is '!command', ..."; vim :w_c, :r!):
// `w !CMD` writes the buffer into CMD, `r !CMD` and `e !CMD` read its
// output, after an address (`1,$w !CMD`, `$r !CMD`), and vim's `%!CMD`
// filters the buffer through it. GNU ed 1.19 and vim 9.0 here ran each
// with a touch marker; `w! F` is a forced write of F, not a command.
func TestEditorFileCommands(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`ed -s f.txt <<< 'w !rm -rf build'`:                 verdict.Block,
		`ed -s f.txt <<< '1,$w !git push --force'`:          verdict.Block,
		`ed -s f.txt <<< ',w !rm -rf build'`:                verdict.Block,
		`ed -s f.txt <<< '$r !rm -rf build'`:                verdict.Block,
		`ed -s <<< 'e !git reset --hard'`:                   verdict.Block,
		`vim -es -c 'w !rm -rf build' -c 'q!' f.txt`:        verdict.Block,
		`vim -es -c 'r !rm -rf build' -c 'q!' f.txt`:        verdict.Block,
		`vim -es -c '%!rm -rf build' -c 'q!' f.txt`:         verdict.Block,
		`vim -es -c '1,$w !git push --force' -c 'q!' f.txt`: verdict.Block,
		`vim -es -c 'silent w !rm -rf build' -c 'q!' f.txt`: verdict.Block,

		`ed -s f.txt <<< 'w out.txt'`:            verdict.Allow,
		`ed -s f.txt <<< '1,$w !wc -l'`:          verdict.Allow,
		`ed -s f.txt <<< 'r notes.txt'`:          verdict.Allow,
		`vim -es -c 'w !wc -l' -c 'q!' f.txt`:    verdict.Allow,
		`vim -es -c '%!sort' -c 'wq' f.txt`:      verdict.Allow,
		`vim -es -c 'w! copy.txt' -c 'q!' f.txt`: verdict.Allow,
	})
}

// TestDpkgInvokeHooks: dpkg --pre-invoke=CMD, --post-invoke=CMD and
// --status-logger=CMD are "run via sh -c" (dpkg(1), installed here; not
// run, it would change the system's packages).
func TestDpkgInvokeHooks(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`dpkg --pre-invoke='rm -rf build' -i x.deb`:    verdict.Block,
		`dpkg --post-invoke 'git push --force' -r pkg`: verdict.Block,
		`dpkg --status-logger='rm -rf build' -i x.deb`: verdict.Block,
		`dpkg --pre-invoke='echo start' -i x.deb`:      verdict.Allow,
		`dpkg -L dpkg`: verdict.Allow,
	})
}

// TestAptHookOptions: apt-get -o KEY=VALUE sets a configuration key, and
// apt.conf(5) names the keys whose values are "shell commands ... invoked
// using /bin/sh": APT::Update::Pre-Invoke, Post-Invoke and
// Post-Invoke-Success, DPkg::Pre-Invoke, Post-Invoke and Pre-Install-Pkgs
// (a trailing "::" appends to the list; keys are case-insensitive).
// `apt-get -o 'APT::Update::Pre-Invoke::=touch M' update` made M here.
func TestAptHookOptions(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`apt-get -o 'APT::Update::Pre-Invoke::=rm -rf build' update`:              verdict.Block,
		`apt-get -o APT::Update::Post-Invoke-Success::='git push --force' update`: verdict.Block,
		`apt -o 'DPkg::Pre-Invoke::=rm -rf build' install -y jq`:                  verdict.Block,
		`apt-get -o dpkg::post-invoke='rm -rf build' upgrade`:                     verdict.Block,
		`apt-get -oDPkg::Pre-Install-Pkgs::='rm -rf build' install jq`:            verdict.Block,
		`apt-get -o Acquire::Retries=3 update`:                                    verdict.Allow,
		`apt-get -o 'APT::Update::Pre-Invoke::=echo start' update`:                verdict.Allow,
		`apt-get install -y jq`:                                                   verdict.Allow,
	})
}
