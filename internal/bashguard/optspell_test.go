package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// Every spelling of the options the disk family reads (cp/install's
// target directory, output options of known and unknown programs): the
// option model (internal/shell's program table) reads them as the program
// does, so a bundled, attached or abbreviated spelling is the same option.
func TestBlockDeviceOptionSpellings(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"cp disk.img /dev/sdb":                                verdict.Block,
		"cp -t /dev/sdb disk.img":                             verdict.Block,
		"cp -t/dev/sdb disk.img":                              verdict.Block,
		"cp -ft /dev/sdb disk.img":                            verdict.Block,
		"cp -vt/dev/sdb disk.img":                             verdict.Block,
		"cp --target-directory=/dev/sdb disk.img":             verdict.Block,
		"cp --target-directory /dev/sdb disk.img":             verdict.Block,
		"cp --target-dir=/dev/sdb disk.img":                   verdict.Block,
		"cp --target /dev/sdb disk.img":                       verdict.Block,
		"cp -- -x.img /dev/sdb":                               verdict.Block,
		"cp -S .bak disk.img /dev/sdb":                        verdict.Block,
		"install -t /dev/sdb disk.img":                        verdict.Block,
		"install -m 644 disk.img /dev/sdb":                    verdict.Block,
		"cp /dev/sdb disk.img":                                verdict.Allow,
		"cp -t build /dev/sdb":                                verdict.Allow,
		"cp --target-directory=build /dev/sdb":                verdict.Allow,
		"install -m 644 /dev/sdb build/disk.img":              verdict.Allow,
		"wget -O /dev/sdb https://x/img":                      verdict.Block,
		"wget -qO /dev/sdb https://x/img":                     verdict.Block,
		"wget -O/dev/sdb https://x/img":                       verdict.Block,
		"curl -o /dev/sdb https://x/img":                      verdict.Block,
		"curl --output=/dev/sdb https://x/img":                verdict.Block,
		"openssl enc -in a -out /dev/sdb":                     verdict.Block,
		"openssl enc -in a -out=/dev/sdb":                     verdict.Block,
		"openssl enc -in /dev/sdb -out build/x":               verdict.Allow,
		"flashtool --dev=/dev/sdb":                            verdict.Block,
		"flashtool -o /dev/sdb img":                           verdict.Block,
		"flashtool -qo /dev/sdb img":                          verdict.Block,
		"flashtool -O/dev/sdb img":                            verdict.Block,
		"flashtool -out /dev/sdb img":                         verdict.Block,
		"flashtool -out=/dev/sdb img":                         verdict.Block,
		"flashtool --output /dev/sdb img":                     verdict.Block,
		"flashtool of=/dev/sdb if=img":                        verdict.Block,
		"flashtool img FILE:/dev/sdb":                         verdict.Block,
		"flashtool -- --dev=/dev/sdb":                         verdict.Allow,
		"flashtool /dev/sda disk.img":                         verdict.Allow,
		"flashtool -i /dev/sda disk.img":                      verdict.Allow,
		"ddrescue os.img /dev/sdb":                            verdict.Block,
		"iostat -x /dev/sda":                                  verdict.Allow,
		"hdparm -I /dev/sda":                                  verdict.Allow,
		"pvcreate /dev/sdb":                                   verdict.Block,
		"mdadm --detail /dev/md0":                             verdict.Allow,
		"mdadm --create /dev/md0 --level=1 /dev/sdb /dev/sdc": verdict.Block,
		"zpool status tank":                                   verdict.Allow,
		"zpool create tank /dev/sdb":                          verdict.Block,
	})
}

// TestTreeDeleterOperands: rimraf and del-cli delete every operand the
// model finds (options anywhere, "--" ending them); options alone are a
// lookup.
func TestTreeDeleterOperands(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"rimraf dist":                           verdict.Block,
		"rimraf --glob 'dist/*'":                verdict.Block,
		"rimraf -- -weird":                      verdict.Block,
		"npx rimraf --preserve-root=false dist": verdict.Block,
		"rimraf --help":                         verdict.Allow,
		"del-cli --version":                     verdict.Allow,
		"rimraf ''":                             verdict.Allow,
	})
}

// TestLabelWriterSpellings: zpool/bcache verbs are their first operand,
// mdadm's modes its options as the model reads them (bundled, abbreviated).
func TestLabelWriterSpellings(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"zpool create tank /dev/sdb":                        verdict.Block,
		"zpool create -f tank /dev/sdb":                     verdict.Block,
		"zpool status /dev/sdb":                             verdict.Allow,
		"zpool iostat tank create /dev/sdb":                 verdict.Allow,
		"bcache make -B /dev/sdb":                           verdict.Block,
		"mdadm --create /dev/md0 -l1 -n2 /dev/sdb /dev/sdc": verdict.Block,
		"mdadm -C /dev/md0 -l1 -n2 /dev/sdb /dev/sdc":       verdict.Block,
		"mdadm -Cv /dev/md0 -l1 -n2 /dev/sdb /dev/sdc":      verdict.Block,
		"mdadm --cre /dev/md0 -l1 -n2 /dev/sdb":             verdict.Block,
		"mdadm /dev/md0 --add /dev/sdb":                     verdict.Block,
		"mdadm --zero-superblock /dev/sdb":                  verdict.Block,
		"mdadm --detail /dev/md0":                           verdict.Allow,
		"mdadm --examine /dev/sdb":                          verdict.Allow,
		"pvcreate /dev/sdb":                                 verdict.Block,
	})
}

// An option's value is abbreviated the way the program's own value parser
// allows: GNU rm reads --interactive's value with argmatch, which takes any
// unambiguous prefix and a prefix shared only by synonyms (n for never, no,
// none), as checked with coreutils 9.1 (--inter=nev, n and non deleted a
// tree with a write-protected member and no prompt; o, a, y and al asked).
func TestOptionValueAbbreviations(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"rm --recursive --inter=nev tmp/":   verdict.Block,
		"rm -r --interactive=n tmp/":        verdict.Block,
		"rm -R --interactive=non tmp/":      verdict.Block,
		"rm -r --interactive=nev\\er tmp/":  verdict.Block,
		"rm -r --interactive never tmp/":    verdict.Allow, // no value attached: --interactive is always, never is an operand
		"rm -r --interactive=o tmp/":        verdict.Allow,
		"rm -r --interactive=al tmp/":       verdict.Allow,
		"rm -r --interactive=y tmp/":        verdict.Allow,
		"rm -r --interactive tmp/":          verdict.Allow,
		"rm --interactive=never tmp/a.txt":  verdict.Allow,
		"rm -r --interactive=nevermore tmp": verdict.Allow, // not a value rm accepts: it refuses to run
	})
}
