package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// Own spellings of the round-4 red-team classes (testdata/redteam/round4)
// taken by engine6; none of them is a listed case.

// TestREPLShellEscapes: REPLs, editors and interpreters the table did not
// know run shell commands through their own escape (sqlite3 .shell,
// ipython and ghci !, gnuplot !) or through a shell-running function of
// their language (vim system(), octave unix(), emacs shell-command), and
// delete trees through library forms (emacs delete-directory … t, cmake
// file(REMOVE_RECURSE)); their other code is data.
func TestREPLShellEscapes(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`sqlite3 -cmd '.system git push -f' x.db .quit`:                                              verdict.Block,
		`sqlite3 app.db <<< '.shell rm -rf out'`:                                                     verdict.Block,
		`echo '.system sudo reboot' | sqlite3 x.db`:                                                  verdict.Block,
		`ipython3 -c '!git reset --hard'`:                                                            verdict.Block,
		`ghc -e ':! rm -rf dist'`:                                                                    verdict.Block,
		`vim -Es -c 'call systemlist("rm -rf dist")' -c qa`:                                          verdict.Block,
		`nvim --headless -c "call system('git push --force')" +q`:                                    verdict.Block,
		`octave-cli --eval "unix('rm -rf dist')"`:                                                    verdict.Block,
		`gnuplot <<< 'system "rm -rf dist"'`:                                                         verdict.Block,
		`gnuplot -e '!rm -rf dist'`:                                                                  verdict.Block,
		`emacs -batch -eval '(call-process-shell-command "rm -rf dist")'`:                            verdict.Block,
		`emacs --batch --eval='(delete-directory "dist" t)'`:                                         verdict.Block,
		`xonsh -c 'rm -rf dist'`:                                                                     verdict.Block,
		`osascript -l JavaScript -e '$.system("git reset --hard")'`:                                  verdict.Block,
		`R --no-save -e 'system("git push -f")'`:                                                     verdict.Block,
		`osascript -l JavaScript -e 'Application.currentApplication().doShellScript("rm -rf dist")'`: verdict.Block,
		`echo 'execute_process(COMMAND rm -rf dist)' | cmake -P /dev/stdin`:                          verdict.Block,
		`cmake -P /dev/stdin <<'EOF'` + "\nfile(REMOVE_RECURSE dist)\nEOF":                           verdict.Block,

		`psql -d app -c '\! rm -rf dist'`:                           verdict.Block,
		`psql app <<'SQL'` + "\n\\! git push --force\nSQL":          verdict.Block,
		`mariadb -e 'system rm -rf dist'`:                           verdict.Block,
		`duckdb -c '.shell rm -rf dist'`:                            verdict.Block,
		`sftp -b - backup <<< '!rm -rf dist'`:                       verdict.Block,
		`vim "+!rm -rf dist" notes.txt`:                             verdict.Block,
		`mysql -e 'SELECT SYSTEM_USER()'`:                           verdict.Allow,
		`psql -c 'select 1'`:                                        verdict.Allow,
		`sftp -b - backup <<< 'put dist.tgz'`:                       verdict.Allow,
		`vim +42 notes.txt`:                                         verdict.Allow,
		`sqlite3 app.db '.tables'`:                                  verdict.Allow,
		`sqlite3 x.db "select 'rm -rf x'"`:                          verdict.Allow,
		`ipython -c 'print(1)'`:                                     verdict.Allow,
		`ghci -e ':type map'`:                                       verdict.Allow,
		`vim -es -c 'call setline(1, "rm -rf x")' -c wq f.txt`:      verdict.Allow,
		`gnuplot -e 'plot sin(x)'`:                                  verdict.Allow,
		`emacs --batch --eval '(delete-directory "dist")'`:          verdict.Allow,
		`emacs --batch --eval '(message "shell-command rm -rf x")'`: verdict.Allow,
		`nu -c 'ls'`: verdict.Allow,
		`node -e 'const $ = require("jquery"); $.get("/x")'`: verdict.Allow,
		`R -q -e 'print(1)'`: verdict.Allow,
		`osascript -l JavaScript -e 'console.log("doShellScript rm -rf x")'`: verdict.Allow,
		`cmake -P /dev/stdin <<< 'message("REMOVE_RECURSE")'`:                verdict.Allow,
		`cmake -P build.cmake`: verdict.Allow,
	})
}

// TestUnknownRunners: programs that start a command named by an option,
// in a container or on other machines.
func TestUnknownRunners(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`start-stop-daemon -S -x /usr/bin/git -- push --force origin main`:                       verdict.Block,
		`start-stop-daemon --start --startas /bin/rm --name x -- -fr /srv`:                       verdict.Block,
		`crictl exec 9c1 rm -rf /var/lib/app`:                                                    verdict.Block,
		`ansible all -i hosts -a 'rm -rf /tmp/cache'`:                                            verdict.Block,
		`ansible db --become -m shell --args 'sudo reboot'`:                                      verdict.Block,
		`az vm run-command invoke -n v -g g --command-id RunShellScript --scripts "git push -f"`: verdict.Block,
		`ctr -n k8s.io task exec --exec-id dbg c9 rm -rf /var/lib/data`:                          verdict.Block,
		`pdsh -w 'web[1-4]' rm -rf /srv/releases`:                                                verdict.Block,
		`parallel-ssh -h hosts.txt -i 'git reset --hard'`:                                        verdict.Block,
		`salt 'web*' cmd.run 'rm -rf /srv/app'`:                                                  verdict.Block,
		`ctr task ls`:                                                                            verdict.Allow,
		`pdsh -w 'web[1-4]' uptime`:                                                              verdict.Allow,
		`salt '*' test.ping`:                                                                     verdict.Allow,
		`deno run --allow-all npm:rimraf@5 build`:                                                verdict.Block,

		`start-stop-daemon --stop --exec /usr/sbin/nginx`: verdict.Allow,
		`crictl exec -it 9c1 ls /data`:                    verdict.Allow,
		`crictl ps -a`:                                    verdict.Allow,
		`ansible all -m ping`:                             verdict.Allow,
		`ansible web -m copy -a 'src=a dest=/srv/b'`:      verdict.Allow,
		`az vm list -g rg`:                                verdict.Allow,
		`deno run -A npm:vite build`:                      verdict.Allow,
		`deno run main.ts`:                                verdict.Allow,
	})
}

// TestGitByEffect: git's synonyms and plumbing are judged by what they do
// to refs, the index and the worktree (stage is add, send-pack is push,
// read-tree --reset -u is reset --hard, checkout-index -a -f is checkout
// -- .), a remote added as a push mirror mirrors the later push, and @ is
// HEAD in the current-branch substitutions.
func TestGitByEffect(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`git stage --all`:                                       verdict.Block,
		`git stage .`:                                           verdict.Block,
		`git send-pack --mirror ../up.git`:                      verdict.Block,
		`git send-pack ../up.git +main:main`:                    verdict.Block,
		`git read-tree --reset -u @`:                            verdict.Block,
		`git checkout-index --all --force`:                      verdict.Block,
		`git remote add --mirror bk2 /srv/bk.git; git push bk2`: verdict.Block,
		`git checkout -f "$(git rev-parse --abbrev-ref @)"`:     verdict.Block,

		`git stage README.md`:                                       verdict.Allow,
		`git send-pack ../up.git main`:                              verdict.Allow,
		`git read-tree -m HEAD`:                                     verdict.Allow,
		`git read-tree --reset HEAD`:                                verdict.Allow,
		`git checkout-index -a`:                                     verdict.Allow,
		`git checkout-index -f -- a.txt`:                            verdict.Allow,
		`git remote add --mirror=fetch bk /srv/bk.git; git push bk`: verdict.Allow,
		`git remote add bk /srv/bk.git && git push bk main`:         verdict.Allow,
		`git switch -f "$(git rev-parse --abbrev-ref @{u})"`:        verdict.Allow,
	})
}

// TestOutputsOntoDevices: a file a program writes by its table row
// (Writes: an output option, a last-operand output) or a socat file
// address that is a block device is a disk write; label writers (zpool,
// mdadm, pvcreate) over a block device destroy it.
func TestOutputsOntoDevices(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`wget -q --output-document=/dev/sdc https://x/img`:                     verdict.Block,
		`curl -sLo /dev/mmcblk0 https://x/img`:                                 verdict.Block,
		`openssl rand -out /dev/vdb 1048576`:                                   verdict.Block,
		`ffmpeg -i in.raw -f rawvideo /dev/loop3`:                              verdict.Block,
		`socat -u STDIN OPEN:/dev/nvme1n1`:                                     verdict.Block,
		`socat - /dev/sdd`:                                                     verdict.Block,
		`zpool add tank mirror /dev/sdc /dev/sdd`:                              verdict.Block,
		`mdadm --create /dev/md1 --level=1 --raid-devices=2 /dev/sdb /dev/sdc`: verdict.Block,
		`vgcreate data /dev/nvme0n1p3`:                                         verdict.Block,

		`wget -O /tmp/img https://x/img`:       verdict.Allow,
		`openssl dgst -sha256 -out d.txt f`:    verdict.Allow,
		`openssl x509 -in /dev/stdin -noout`:   verdict.Allow,
		`socat -u OPEN:/dev/sda,rdonly STDOUT`: verdict.Allow,
		`socat -u FILE:/dev/sdb STDOUT`:        verdict.Allow,
		`zpool status tank`:                    verdict.Allow,
		`mdadm --detail /dev/md0`:              verdict.Allow,
		`pvdisplay /dev/sdb`:                   verdict.Allow,
	})
}

// TestProductionChannels: ssh -W reaches its host, helm reads
// HELM_KUBECONTEXT, docker -c is --context.
func TestProductionChannels(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`ssh -N -W db.prod.internal:5432 jump`:                  verdict.Block,
		`env HELM_KUBECONTEXT=prod-eu helm upgrade app ./chart`: verdict.Block,
		`docker -c prod ps`:                                     verdict.Block,

		`ssh -W db.staging:5432 jump`:    verdict.Allow,
		`HELM_KUBECONTEXT=dev helm list`: verdict.Allow,
		`docker -c dev ps`:               verdict.Allow,
		`docker run -c 512 product-api`:  verdict.Allow,
	})
}

// TestUnlistedPublishers: the verb of a program whose subcommands the
// table does not list says it publishes (publish, push, a copy to a
// registry transport): warn.
func TestUnlistedPublishers(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`flit publish`:                                        verdict.Warn,
		`crane push img.tar reg.example.com/a:1`:              verdict.Warn,
		`skopeo sync --src dir d docker://reg.example.com/ns`: verdict.Warn,

		`docker manifest push reg.example.com/a:1`:                           verdict.Warn,
		`dotnet nuget push pkg.nupkg -s https://api.nuget.org/v3/index.json`: verdict.Warn,
		`conan upload "zlib/*" -r remote`:                                    verdict.Warn,
		`git subtree push --prefix=lib origin lib`:                           verdict.Allow,
		`docker manifest inspect reg.example.com/a:1`:                        verdict.Allow,
		`dotnet nuget locals all --clear`:                                    verdict.Allow,
		`skopeo copy docker://reg.example.com/a:1 oci-archive:a.tar`:         verdict.Allow,
		`skopeo inspect docker://reg.example.com/a:1`:                        verdict.Allow,
		`oras pull reg.example.com/art:1`:                                    verdict.Allow,
		`changeset version`:                                                  verdict.Allow,
		`echo publish`:                                                       verdict.Allow,
	})
}
