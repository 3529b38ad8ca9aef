package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestGitConfigRunnersComplete: every configuration key whose value git
// runs (git-config(1)), set with -c or git config, is walked as the command
// it runs. Checked with git 2.39 and a touch marker: diff.x.textconv (with
// an attribute diff=x) and remote.origin.uploadpack (a local remote) ran
// their command, gpg.program ran a script at commit -S. Next to each, the
// same key with a harmless value, and data keys, run.
func TestGitConfigRunnersComplete(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`echo '* diff=x' > .gitattributes; git -c diff.x.textconv='rm -rf build; cat' diff`: verdict.Block,
		`git -c diff.x.command='rm -rf build' diff`:                                         verdict.Block,
		`git -c merge.ours.driver='rm -rf build' merge topic`:                               verdict.Block,
		`git -c remote.origin.uploadpack='rm -rf build; git-upload-pack' fetch origin`:      verdict.Block,
		`git -c remote.origin.receivepack='git push --force' push origin`:                   verdict.Block,
		`git -c gpg.program='rm -rf build' commit -S -m x`:                                  verdict.Block,
		`git -c gpg.ssh.program='rm -rf build' commit -S -m x`:                              verdict.Block,
		`git -c core.gitProxy='rm -rf build' fetch git://example.com/x`:                     verdict.Block,
		`git -c interactive.diffFilter='rm -rf build' add -p`:                               verdict.Block,
		`git -c core.alternateRefsCommand='rm -rf build' fetch`:                             verdict.Block,
		`git -c 'credential.https://example.com.helper=!rm -rf build' push`:                 verdict.Block,
		`git -c credential.helper='/bin/rm -rf build' push`:                                 verdict.Block,
		`git -c difftool.x.path='rm -rf build' difftool -t x`:                               verdict.Block,
		`git -c hook.pre-commit.command='rm -rf build' commit -m x`:                         verdict.Block,
		`git -c trailer.x.command='rm -rf build' interpret-trailers --trailer x`:            verdict.Block,
		`git -c 'submodule.v.update=!rm -rf build' submodule update`:                        verdict.Block,
		`git config diff.x.textconv 'rm -rf build'`:                                         verdict.Block,
		`git config --add gpg.program 'rm -rf build'`:                                       verdict.Block,

		`git -c diff.x.textconv=cat diff`:                      verdict.Allow,
		`git -c merge.ours.driver=true merge topic`:            verdict.Allow,
		`git -c gpg.program=gpg2 commit -S -m x`:               verdict.Allow,
		`git -c credential.helper=store push`:                  verdict.Allow,
		`git -c 'credential.https://example.com.helper=' push`: verdict.Allow,
		`git -c submodule.v.update=rebase submodule update`:    verdict.Allow,
		`git config diff.x.textconv 'exiftool'`:                verdict.Allow,
		`git config user.email 'rm -rf build'`:                 verdict.Allow,
		`git -c trailer.x.key=Signed-off-by commit -m x`:       verdict.Allow,
	})
}
