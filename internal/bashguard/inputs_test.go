package bashguard

import (
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// Own spellings of round 4's last two Bash gaps (ub0056, ub0100) and their
// allow neighbours; none is a listed case.

// TestNamedDescriptors: `exec {NAME}<…` opens a descriptor whose number the
// shell stores in NAME (bash: the lowest free one from 10), so a shell
// reading it (`<&$NAME`, /dev/fd/$NAME) runs its literal content.
func TestNamedDescriptors(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"exec {in}<<<'rm -rf build'; sh <&$in":                               verdict.Block,
		"exec {src}< <(printf 'git push -f origin main'); bash <&\"${src}\"": verdict.Block,
		"exec {a}<<<'ls' {b}<<<'rm -rf dist'; bash /dev/fd/$b":               verdict.Block,
		"exec {fd}<<'EOF'\nrm -rf out\nEOF\nbash -s <&$fd":                   verdict.Block,
		"exec {a}<<<'ls' {b}<<<'rm -rf dist'; bash /dev/fd/$a":               verdict.Allow,
		"exec {in}<<<'rm -rf build'; cat <&$in":                              verdict.Allow,
		"exec {in}< <(echo 'go test ./...'); bash <&$in":                     verdict.Allow,
		"exec {log}>>/tmp/run.log; echo 'rm -rf build' >&$log":               verdict.Allow,
	})
}

// TestAwkRecords: an awk program's records are the literal text on its
// stdin, so $0 and a bare print carry it into system() and into a pipe to
// a command (`print | "sh"`); in BEGIN no record is read yet, and input
// files make the records unknown.
func TestAwkRecords(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"printf 'rm -rf build' | awk '{ system($0) }'":           verdict.Block,
		"echo 'rm -rf out' | gawk '{ cmd = $0; system(cmd) }'":   verdict.Block,
		"awk '{ print $0 | \"bash\" }' <<< 'git push --force'":   verdict.Block,
		"printf 'rm -rf dist\\n' | mawk '{ print | \"sh -s\" }'": verdict.Block,
		"printf 'rm -rf build' | awk '{ print | \"cat\" }'":      verdict.Allow,
		"echo 'rm -rf out' | awk 'BEGIN { system($0) }'":         verdict.Allow,
		"printf 'rm -rf build' | awk '{ system($0) }' list.txt":  verdict.Allow,
		"printf 'ls -la' | awk '{ print | \"sh\" }'":             verdict.Allow,
		"printf 'rm -rf build' | awk '{ print $0 }'":             verdict.Allow,
	})
}

// TestEnvCommandExamples runs every row of the command-valued environment
// table (shell.EnvCommands) with its own example: each variable set to a
// destructive command line in front of the row's reader blocks, set to a
// harmless one it is allowed.
func TestEnvCommandExamples(t *testing.T) {
	for _, e := range shell.EnvCommands() {
		for _, name := range strings.Fields(e.Names) {
			judged(t, map[string]verdict.Action{
				name + "='" + e.Marks + "rm -rf build' " + e.Example: verdict.Block,
				name + "=true " + e.Example:                          verdict.Allow,
			})
		}
	}
}

// TestCommandValuedEnvironment: a pager, editor or ssh command in the
// environment of any program that runs is judged as the command line it
// is — set in front of the command, through env, exported earlier, or
// assigned without export (the parent commonly exports these already) —
// and so are the options of man and git send-email that name one; data
// programs, a bare export, `env -u` and other variables stay allowed.
func TestCommandValuedEnvironment(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"man -P 'rm -rf ~' ls":                                    verdict.Block,
		"man --pag='git push --force origin main' git":            verdict.Block,
		`MANPAGER='sh -c "rm -rf build"' man 5 crontab`:           verdict.Block,
		"declare -x PAGER='rm -rf dist'; man ls":                  verdict.Block,
		"GIT_EDITOR='rm -rf src'; git commit":                     verdict.Block,
		"env VISUAL='rm -rf out' kubectl edit cm app":             verdict.Block,
		"export GIT_SSH_COMMAND='rm -rf ~/.ssh'; git pull":        verdict.Block,
		"P='rm -rf b'; SYSTEMD_PAGER=$P journalctl -u web":        verdict.Block,
		"PAGER='rm -rf build' some-new-cli --help":                verdict.Block,
		"git send-email --sendmail-cmd='rm -rf build' 0001.patch": verdict.Block,
		"git -c sendemail.tocmd='rm -rf b' send-email x.patch":    verdict.Block,
		"LESSOPEN='||rm -rf build %s' less a.txt":                 verdict.Block,
		"PAGER='less -R' man ls":                                  verdict.Allow,
		"man -P cat ls":                                           verdict.Allow,
		"man rm -rf":                                              verdict.Allow,
		"EDITOR='rm -rf build'; echo saved":                       verdict.Allow,
		"export PAGER='rm -rf build'":                             verdict.Allow,
		"PAGER='rm -rf build'; env -u PAGER man ls":               verdict.Allow,
		"MSG='rm -rf build' make":                                 verdict.Allow,
		"GIT_SSH_COMMAND='ssh -i ~/.ssh/deploy' git fetch":        verdict.Allow,
		"git send-email --to=dev@example.com 0001.patch":          verdict.Allow,
	})
}

// TestLftpCommands: lftp's -c/-e text and its stdin script are lists of
// lftp commands: `!CMD` is a local shell command, `rm -r`/`mrm -r` delete
// on the server without a prompt (rm -r -f there); other lftp commands
// and a plain rm are allowed.
func TestLftpCommands(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"lftp -c 'open ftp://h; !rm -rf build'":              verdict.Block,
		"lftp -e 'cd www && rm -r old; bye' sftp://deploy@h": verdict.Block,
		"lftp -u u,p h <<< $'cd pub\nmrm -r cache'":          verdict.Block,
		"lftp -c 'open h; !git push --force origin main'":    verdict.Block,
		"lftp -c 'open h; ls; get a.tgz; bye'":               verdict.Allow,
		"lftp -c 'open h; rm old.log'":                       verdict.Allow,
		"lftp -e 'mirror -R dist /www; bye' h":               verdict.Allow,
		"lftp -c 'open h; !ls -la'":                          verdict.Allow,
	})
}

// TestAwsProfileAnywhere: aws takes its global options before or after
// the subcommands, so a production profile counts in either place.
func TestAwsProfileAnywhere(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"aws s3 --profile acme-prod sync dist/ s3://site/": verdict.Block,
		"aws --profile=prod-eu s3 cp a.txt s3://b/a.txt":   verdict.Block,
		"aws s3 cp a.txt s3://prod-assets/a.txt":           verdict.Allow,
	})
}
