package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestSecureDeletersAreRm: srm and wipe delete like rm and overwrite what
// they delete (testdata/corpus/README.md §2.4 rm_rf, §9: judge the
// effect): given a recursive and a force option they delete whole trees
// without a prompt, as rm -rf does; alone, -r prompts (wipe) or is rm -r.
func TestSecureDeletersAreRm(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`srm -rf old-build`:                 verdict.Block,
		`srm -r -f old-build`:               verdict.Block,
		`srm --recursive --force d`:         verdict.Block,
		`wipe -rf old-build`:                verdict.Block,
		`wipe -R -f -q old-build`:           verdict.Block,
		`wipe -fr -Q 1 old-build`:           verdict.Block,
		`srm old.key`:                       verdict.Allow,
		`srm -r old-build`:                  verdict.Allow,
		`wipe -r old-build`:                 verdict.Allow,
		`wipe -f secret.txt`:                verdict.Allow,
		`srm --version`:                     verdict.Allow,
		`sudo apt-get install -y wipe`:      verdict.Block, // sudo
		`apt-cache show wipe secure-delete`: verdict.Allow,
	})
}

// TestDatabaseClientsProdHost: every database client's host option (its
// own spelling) names the server it connects to (§9.3 production):
// PostgreSQL's dropdb/createdb -h, clickhouse-client --host, valkey-cli
// -h (the Redis-protocol clients), cqlsh HOST [PORT]. A database or key
// named prod on another host is data.
func TestDatabaseClientsProdHost(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`dropdb -h prod-pg.internal app`:                                 verdict.Block,
		`dropdb --host=prod-pg.internal app`:                             verdict.Block,
		`createdb -e -h prod-pg app2`:                                    verdict.Block,
		`clickhouse-client --host prod-ch.internal -q 'select 1'`:        verdict.Block,
		`clickhouse-client -h prod-ch -q 'select 1'`:                     verdict.Block,
		`valkey-cli -h prod-cache FLUSHALL`:                              verdict.Block,
		`keydb-cli -h prod-cache ping`:                                   verdict.Block,
		`cqlsh prod-cassandra 9042`:                                      verdict.Block,
		`cqlsh -u app prod-cassandra`:                                    verdict.Block,
		`dropdb -h dev-pg prod_copy`:                                     verdict.Allow,
		`dropdb app_test`:                                                verdict.Allow,
		`clickhouse-client --host dev-ch -q 'select * from prod_events'`: verdict.Allow,
		`valkey-cli -h localhost get prod:key`:                           verdict.Allow,
		`cqlsh dev-cassandra 9042 -e 'select * from prod.t'`:             verdict.Allow,
		`cqlsh -k prod_ks dev-cassandra`:                                 verdict.Allow,
	})
}

// TestKubeAndSSHFamily: kubecolor runs kubectl with its arguments,
// helmfile hands --kube-context to helm, ssh-copy-id logs in to its host
// over ssh (§2.4, §9.3 production); ssh -G only prints the configuration
// it would use and connects nowhere; ssh as root to this machine is a
// root shell on the host (§9.3 privilege, by effect).
func TestKubeAndSSHFamily(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`kubecolor --context prod-eks get pods`:                verdict.Block,
		`kubecolor get pods --context=prod-eks`:                verdict.Block,
		`helmfile --kube-context prod-eks apply`:               verdict.Block,
		`helmfile -e staging --kube-context=eks-prod sync`:     verdict.Block,
		`ssh-copy-id -i ~/.ssh/id_ed25519.pub deploy@prod-web`: verdict.Block,
		`ssh-copy-id -p 2222 prod-web`:                         verdict.Block,
		`ssh root@localhost 'id'`:                              verdict.Block,
		`ssh -l root 127.0.0.1 id`:                             verdict.Block,
		`ssh -o User=root localhost`:                           verdict.Block,
		`ssh -G prod-web`:                                      verdict.Allow,
		`ssh -G -p 22 deploy@prod-web`:                         verdict.Allow,
		`ssh -Gv prod-web`:                                     verdict.Allow,
		`ssh -v prod-web`:                                      verdict.Block,
		`kubecolor --context dev-eks get pods -n prod`:         verdict.Allow,
		`helmfile --kube-context dev-eks -e prod diff`:         verdict.Allow,
		`ssh-copy-id -i ~/.ssh/id.pub deploy@dev-web`:          verdict.Allow,
		`ssh deploy@localhost id`:                              verdict.Allow,
		`ssh root@build-box.internal uptime`:                   verdict.Allow,
	})
}

// TestTaskNamespacePublish: a task runner's namespaced publish task
// (`mix hex.publish`) publishes like npm publish (§2.5, §9.1 cautious
// reading of an unlisted program by its verb); other tasks do not.
func TestTaskNamespacePublish(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`mix hex.publish --yes`: verdict.Warn,
		`mix hex.publish`:       verdict.Warn,
		`mix hex.build`:         verdict.Allow,
		`mix test`:              verdict.Allow,
		`mix deps.get`:          verdict.Allow,
	})
}

// TestWorldWritableNodes: mkfifo -m and mknod -m give the new node its
// mode as mkdir -m does (§2.4 perms, the same modes); other modes are
// allowed.
func TestWorldWritableNodes(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`mkfifo -m 777 /tmp/p`:       verdict.Block,
		`mkfifo --mode=a+rwx /tmp/p`: verdict.Block,
		`mknod -m 0777 ./n c 1 3`:    verdict.Block,
		`mknod --mode 1777 ./n p`:    verdict.Block,
		`mkfifo -m 600 /tmp/p`:       verdict.Allow,
		`mkfifo /tmp/p`:              verdict.Allow,
		`mknod -m 0666 ./n c 1 3`:    verdict.Allow,
	})
}

// TestNameMadeForADevice: a symbolic link to a block device, or a block
// device node, made earlier in the command is that device: writing it is
// a disk write (§2.4 disk, §9.4 "made earlier"). A link to a file, a
// character node and reads stay allowed.
func TestNameMadeForADevice(t *testing.T) {
	judged(t, map[string]verdict.Action{
		`ln -s /dev/sdb target.img && cat os.img > target.img`: verdict.Block,
		`ln -sf /dev/nvme0n1 t && cp os.img t`:                 verdict.Block,
		`mknod ./d b 8 16 && cp os.img ./d`:                    verdict.Block,
		`mknod d b 8 16; cat os.img > d`:                       verdict.Block,
		`ln -s /dev/sdb t.img && cat t.img > /tmp/copy`:        verdict.Allow,
		`ln -s os.img target.img && cat x > target.img`:        verdict.Allow,
		`mknod ./n c 1 3 && cat x > ./n`:                       verdict.Allow,
		`mknod ./d b 8 16 && cat ./d > /tmp/backup.img`:        verdict.Allow,
	})
}

// TestMakeDryRun: make -n (--just-print, --dry-run, --recon, --dry)
// prints the recipes and runs only the lines that start with '+' or
// name $(MAKE) (checked with GNU make 4.3); without it every line runs.
func TestMakeDryRun(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"make -n -f - <<< $'all:\\n\\trm -rf build'":              verdict.Allow,
		"make --dry-run -f - <<< $'all:\\n\\t@rm -rf build'":      verdict.Allow,
		"make --just-print -f - <<< $'all: ; rm -rf build'":       verdict.Allow,
		"make --dry -f - <<< $'all:\\n\\trm -rf build'":           verdict.Allow,
		"make -nf - <<< $'all:\\n\\trm -rf build'":                verdict.Allow,
		"make -f - <<< $'all:\\n\\trm -rf build'":                 verdict.Block,
		"make -n -f - <<< $'all:\\n\\t+rm -rf build'":             verdict.Block,
		"make -n -f - <<< $'all:\\n\\t@+rm -rf build'":            verdict.Block,
		"make -n -f - <<< $'all:\\n\\t$(MAKE) x; rm -rf build'":   verdict.Block,
		"make -n -f - <<< $'all:\\n\\t${MAKE} x && rm -rf build'": verdict.Block,
	})
}
