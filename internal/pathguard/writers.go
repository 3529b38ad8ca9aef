package pathguard

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/superagent-harness/harness/internal/shell"
)

// other handles writers outside the list of testdata/corpus/README.md §3.3 whose
// targets are plain on the command line: in-place compressors, output
// options of compilers and converters, editors, sponge, uniq OUT, mktemp,
// fallocate, rename, git clone destinations, cpio/7z extraction.
func (c *collector) other(prog string, args []string) {
	switch prog {
	case "gzip", "bzip2", "xz", "lzma", "lz4", "zstd", "compress", "gunzip", "bunzip2", "unxz", "unlzma", "unzstd", "uncompress", "zcat":
		p := c.parsed()
		if prog == "zcat" || p.Has("clt", "stdout", "to-stdout", "list", "test") {
			return
		}
		// A (de)compressed sibling is written next to each file (in a
		// read-only folder that is a write there too); without -k the
		// original is removed.
		for _, f := range p.OperandValues() {
			if f != "-" {
				c.add(path.Dir(filepath.ToSlash(f))+"/"+placeholder, opWrite, prog+" (output beside the input)")
			}
		}
		if p.Has("k", "keep") || (prog == "zstd" && !p.Has("", "rm")) {
			return
		}
		c.files(p, opDelete, prog)
	case "npm", "pnpm", "yarn":
		cmd := c.inv.Command()
		switch cmd.SubName() {
		case "pack":
			// npm/pnpm pack --pack-destination DIR writes the tarball into DIR
			for _, d := range cmd.Rebind(c.args).AllValues("", "pack-destination") {
				c.add(strings.TrimRight(d, "/")+"/"+placeholder, opWrite, prog+" pack --pack-destination")
			}
		case "install", "i", "ci", "add", "update", "up", "upgrade", "uninstall", "un", "rm", "remove", "link", "ln", "dedupe", "prune", "init":
			// npm --prefix/-C DIR, pnpm --dir/-C DIR, yarn --cwd DIR (before
			// the subcommand or after it) make install and friends write
			// DIR/node_modules and DIR/package*.json
			for _, d := range cmd.Rebind(c.args).AllValues("C", "prefix", "dir", "cwd") {
				c.add(strings.TrimRight(d, "/")+"/"+placeholder, opWrite, prog+" "+cmd.SubName()+" (its directory)")
			}
		}
	case "convert", "magick":
		// ImageMagick: the last operand is the output image
		if ops := c.parsed().OperandValues(); len(ops) >= 2 {
			c.add(ops[len(ops)-1], opWrite, prog+" (output)")
		}
	case "mogrify":
		c.files(c.parsed(), opWrite, "mogrify (in place)")
	case "exiftool":
		// a tag assignment (-TAG=VALUE, -TAG+=VALUE, -all=) rewrites the
		// files (in place, or into -o OUT); without one exiftool only reads
		p := c.parsed()
		writes := p.Has("", "overwrite_original", "overwrite_original_in_place")
		for _, o := range p.Opts {
			if o.HasValue && o.ValArg == o.Arg && !o.Takes {
				writes = true // attached with "=": not an option that takes a value
			}
		}
		if writes {
			for _, f := range p.Values("", "o", "out") {
				c.add(f, opWrite, "exiftool -o")
			}
			for _, f := range p.OperandValues() {
				c.add(f, opWrite, "exiftool (in place)")
			}
		}
	case "link":
		// coreutils link FILE1 FILE2: FILE2 becomes a hard link to FILE1,
		// so FILE1 is writable under the new name.
		ops := c.parsed().OperandValues()
		if len(ops) >= 1 {
			c.add(ops[0], opWrite, "hard link (source)")
		}
		if len(ops) >= 2 {
			c.add(ops[1], opWrite, "link")
		}
	case "xxd", "json.tool":
		// xxd [-r] [INFILE [OUTFILE]], python -m json.tool [INFILE
		// [OUTFILE]]: the second operand is written
		if ops := c.parsed().OperandValues(); len(ops) >= 2 {
			c.add(ops[1], opWrite, prog+" (output)")
		}
	case "sponge":
		p := c.parsed()
		o := opWrite
		if p.Has("a") {
			o = opAppend
		}
		for _, f := range p.OperandValues() {
			c.add(f, o, "sponge")
		}
	case "uniq":
		p := c.parsed()
		if ops := p.OperandValues(); len(ops) >= 2 {
			c.add(ops[1], opWrite, "uniq (output)")
		}
	case "iconv":
		p := c.parsed()
		for _, f := range p.Values("o", "output") {
			c.add(f, opWrite, "iconv -o")
		}
	case "ex", "vi", "vim", "nvim", "nano", "emacs", "pico", "micro", "kak", "hx":
		// ed and red: their row's WriteSpec (Ed: the script decides)
		p := c.parsed()
		if (prog == "vi" || prog == "vim" || prog == "nvim") && p.Has("RM") {
			return // read-only mode
		}
		if !c.inv.Command().EditsOperands(c.inv.Stdin) {
			return // a known script that writes only the files it names (tableWrites)
		}
		for _, f := range p.OperandValues() {
			if !strings.HasPrefix(f, "+") {
				c.add(f, opWrite, prog)
			}
		}
	case "mktemp":
		p := c.parsed()
		dir, hasDir := p.Last("p", "tmpdir")
		for _, f := range p.OperandValues() {
			if hasDir && !strings.Contains(f, "/") {
				f = strings.TrimRight(dir, "/") + "/" + f
			}
			c.add(f, opWrite, "mktemp")
		}
		if hasDir && dir != "" {
			c.add(strings.TrimRight(dir, "/")+"/"+placeholder, opWrite, "mktemp -p")
		}
	case "fallocate":
		p := c.parsed()
		c.files(p, opWrite, "fallocate")
	case "rename", "prename", "file-rename":
		p := c.parsed()
		ops := p.OperandValues()
		skip := 1 // perl rename: the expression
		if !p.Has("e") && len(ops) >= 3 && !strings.ContainsAny(ops[0], "/(") {
			skip = 2 // util-linux rename FROM TO FILE…
		}
		if p.Has("e") {
			skip = 0
		}
		if len(ops) > skip {
			for _, f := range ops[skip:] {
				c.add(f, opTree, "rename")
			}
		}
	// go build|test|tool -o FILE: their row's WriteSpec
	case "gcc", "g++", "cc", "c++", "clang", "clang++", "rustc", "tcc", "zig", "ld", "as", "nasm", "pandoc", "protoc":
		p := c.parsed()
		for _, f := range p.Values("o", "output") {
			c.add(f, opWrite, prog+" -o")
		}
		for _, d := range p.Values("", "out-dir", "outdir") {
			c.add(strings.TrimRight(d, "/")+"/"+placeholder, opWrite, prog+" --out-dir")
		}
		for _, o := range p.Opts {
			if o.Long && strings.HasSuffix(o.Name, "_out") && o.HasValue { // protoc --go_out=DIR
				v := o.Value
				if i := strings.LastIndexByte(v, ':'); i >= 0 {
					v = v[i+1:]
				}
				c.add(strings.TrimRight(v, "/")+"/"+placeholder, opWrite, prog+" --"+o.Name)
			}
		}
	case "esbuild", "tsc", "swc", "babel", "rollup", "webpack":
		p := c.parsed()
		for _, f := range p.Values("o", "outfile", "outFile", "out-file", "file") {
			c.add(f, opWrite, prog+" --outfile")
		}
		for _, d := range p.Values("d", "outdir", "outDir", "out-dir", "dir") {
			c.add(strings.TrimRight(d, "/")+"/"+placeholder, opWrite, prog+" --outdir")
			c.add(d, opWrite, prog+" --outdir")
		}
	case "cpio":
		p := c.parsed()
		if p.Has("i", "extract") {
			dir, ok := p.Last("D", "directory")
			if !ok {
				dir = "."
			}
			c.add(dir, opWrite, "cpio -i")
		}
	case "zip":
		// zip [opts] ARCHIVE [files…]: the archive is written (also with
		// -d/-u/-m, which change it; -m also deletes the added files)
		p := c.parsed()
		if ops := p.OperandValues(); len(ops) > 0 {
			c.add(ops[0], opWrite, "zip archive")
			if p.Has("m", "move") {
				for _, f := range ops[1:] {
					c.add(f, opTree, "zip -m")
				}
			}
		}
		for _, f := range p.Values("O", "output-file") {
			c.add(f, opWrite, "zip -O")
		}
	case "scp", "sftp":
		// a local destination (no host: part) is written
		p := c.parsed()
		if ops := p.OperandValues(); len(ops) >= 2 && prog == "scp" && !remoteOperand(ops[len(ops)-1]) {
			c.add(ops[len(ops)-1], opWrite, "scp destination")
		}
	case "docker", "podman", "nerdctl", "kubectl", "oc":
		// docker cp SRC DEST / kubectl cp SRC DEST: a local DEST is written
		// (container and pod paths hold a colon: CONTAINER:PATH, [NS/]POD:PATH)
		if c.inv.Command().Is("cp") {
			if ops := c.parsed().OperandValues(); len(ops) >= 2 && !strings.Contains(ops[len(ops)-1], ":") {
				c.add(ops[len(ops)-1], opWrite, prog+" cp destination")
			}
		}
	case "7z", "7za", "7zr", "7zz":
		// a (add), u (update), d (delete), rn (rename) change the archive;
		// x and e extract into -oDIR (the working directory without one)
		p := c.parsed()
		ops := p.OperandValues()
		if len(ops) > 1 && (ops[0] == "a" || ops[0] == "u" || ops[0] == "d" || ops[0] == "rn") {
			c.add(ops[1], opWrite, "7z "+ops[0])
			if ops[0] == "a" && slices.Contains(p.Values("s"), "del") {
				// -sdel deletes the files once they are in the archive
				for _, f := range ops[2:] {
					c.add(f, opTree, "7z a -sdel")
				}
			}
		}
		if len(ops) > 0 && (ops[0] == "x" || ops[0] == "e") {
			dir, ok := p.Last("o")
			if !ok {
				dir = "."
			}
			c.add(dir, opWrite, "7z "+ops[0])
		}
	case "ar", "gcc-ar", "llvm-ar":
		c.arWrites()
	case "pax":
		// -r extracts into the working directory, -w writes the archive
		// (-f FILE, else stdout), -r -w copies into the last operand; with
		// neither it lists
		p := c.parsed()
		r, w := p.Has("r"), p.Has("w")
		ops := p.OperandValues()
		switch {
		case r && w:
			if len(ops) > 0 {
				c.add(ops[len(ops)-1], opWrite, "pax -rw (destination)")
				c.add(strings.TrimRight(ops[len(ops)-1], "/")+"/"+placeholder, opWrite, "pax -rw (destination)")
			}
		case r:
			c.add(".", opWrite, "pax -r")
		case w:
			for _, f := range p.Values("f") {
				c.add(f, opWrite, "pax -w -f (archive)")
			}
		}
	case "zipfile", "tarfile":
		// python -m zipfile|tarfile: -c OUT IN… writes OUT; -e ARCHIVE DIR
		// extracts into DIR (tarfile: the working directory without one)
		p := c.parsed()
		for _, f := range p.Values("c", "create") {
			c.add(f, opWrite, prog+" -c")
		}
		if p.Has("e", "extract") {
			dir := "."
			if ops := p.OperandValues(); len(ops) > 0 {
				dir = ops[0]
			}
			c.add(dir, opWrite, prog+" -e")
		}
	case "split", "csplit":
		p := c.parsed()
		ops := p.OperandValues()
		prefix := "x"
		if prog == "split" && len(ops) >= 2 {
			prefix = ops[1]
		}
		if v, ok := p.Last("f", "prefix"); ok && prog == "csplit" {
			prefix = v
		}
		if prog == "csplit" && !p.Has("f", "prefix") {
			prefix = "xx"
		}
		c.add(prefix+placeholder, opWrite, prog)
		for _, suf := range splitSuffixes(prog, p) {
			c.add(prefix+suf, opWrite, prog)
		}
	}
}

// arWrites judges GNU ar by its operation letter (the first operand, an
// optional '-' before it): t and p only read the archive; r q d m s write
// it; x extracts the members named (every member without one: unknown
// names) into the working directory or --output DIR. Modifiers a b i take
// a RELPOS operand before the archive, N a COUNT. Checked with GNU ar
// 2.40 under /tmp: `ar t lib.a` wrote nothing, `ar x lib.a README.md`
// wrote ./README.md, `ar x --output=o lib.a` wrote o/a.o and o/README.md.
// An operation the guard cannot read writes the archive and the members.
func (c *collector) arWrites() {
	p := c.parsed()
	ops := p.OperandValues()
	if len(ops) == 0 {
		return
	}
	key := strings.TrimPrefix(ops[0], "-")
	op := strings.IndexAny(key, "dmpqrstx")
	rest := ops[1:]
	skip := 0
	if strings.ContainsAny(key, "abi") && strings.ContainsAny(key, "mrq") {
		skip++
	}
	if strings.Contains(key, "N") {
		skip++
	}
	rest = rest[min(skip, len(rest)):]
	if len(rest) == 0 {
		return
	}
	archive, members := rest[0], rest[1:]
	dir := "."
	if v, ok := p.Last("", "output"); ok && v != "" {
		dir = v
	}
	letter := byte('?')
	if op >= 0 {
		letter = key[op]
	}
	switch letter {
	case 't', 'p':
	case 'x':
		if len(members) == 0 {
			c.add(strings.TrimRight(dir, "/")+"/"+placeholder, opWrite, "ar x")
		}
		for _, m := range members {
			c.add(path.Join(dir, m), opWrite, "ar x")
		}
	case 'd', 'm', 'q', 'r', 's':
		c.add(archive, opWrite, "ar "+string(letter)+" (archive)")
	default:
		c.add(archive, opWrite, "ar (archive)")
		for _, m := range members {
			c.add(path.Join(dir, m), opWrite, "ar (member)")
		}
	}
}

// splitSuffixes are the suffixes of the first pieces split and csplit name
// PREFIX+SUFFIX, so that a piece landing on a protected name is seen:
// csplit's -b/--suffix-format is a printf format of the piece number
// (default %0Nd, N from -n/--digits, 2), `csplit -f README -b '%.0d.md'`
// writes README.md for piece 0 (checked under /tmp with coreutils 9);
// split's are -a/--suffix-length (2) letters, or digits with
// -d/--numeric-suffixes[=FROM] or hex digits with -x/--hex-suffixes, then
// --additional-suffix (checked: `split -l1 -d -a3 --additional-suffix=.md
// n.md P` writes P000.md …). Pieces 0..99 for csplit; for split every
// suffix of its length when there are at most 1000, else none (the
// placeholder stands for them).
func splitSuffixes(prog string, p shell.ParsedOpts) []string {
	var out []string
	if prog == "csplit" {
		format := "%02d"
		if v, ok := p.Last("n", "digits"); ok {
			format = "%0" + v + "d"
		}
		if v, ok := p.Last("b", "suffix-format"); ok {
			format = v
		}
		gofmt, ok := cFormat(format)
		if !ok {
			return nil
		}
		for n := 0; n < 100; n++ {
			out = append(out, fmt.Sprintf(gofmt, n))
		}
		return out
	}
	alphabet := "abcdefghijklmnopqrstuvwxyz"
	if p.Has("d", "numeric-suffixes") {
		alphabet = "0123456789"
	}
	if p.Has("x", "hex-suffixes") {
		alphabet = "0123456789abcdef"
	}
	length := 2
	if v, ok := p.Last("a", "suffix-length"); ok {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			length = n
		}
	}
	extra, _ := p.Last("", "additional-suffix")
	total := 1
	for i := 0; i < length; i++ {
		if total *= len(alphabet); total > 1000 {
			return nil
		}
	}
	for n := 0; n < total; n++ {
		suf, k := make([]byte, length), n
		for i := length - 1; i >= 0; i-- {
			suf[i] = alphabet[k%len(alphabet)]
			k /= len(alphabet)
		}
		out = append(out, string(suf)+extra)
	}
	return out
}

// cFormat turns a C printf format with one integer conversion
// (%[flags][width][.prec]d|i|u|o|x|X, csplit's -b) into Go's; false for
// anything else.
func cFormat(f string) (string, bool) {
	var b strings.Builder
	convs := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			b.WriteString("%%")
			i++
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ 0#'", f[j]) >= 0 {
			j++
		}
		for j < len(f) && (f[j] >= '0' && f[j] <= '9' || f[j] == '.') {
			j++
		}
		if j >= len(f) || strings.IndexByte("diuoxX", f[j]) < 0 {
			return "", false
		}
		verb := f[j]
		if verb == 'i' || verb == 'u' {
			verb = 'd'
		}
		b.WriteString(strings.ReplaceAll(f[i:j], "'", ""))
		b.WriteByte(verb)
		convs++
		i = j
	}
	return b.String(), convs == 1
}

// gitClone adds the directory `git clone URL [DIR]` or `git worktree add
// PATH` creates, and the .git directory of `git init [DIR]`. When the new
// repository's configuration or hooks come from the command — a template
// (--template, or templated: GIT_TEMPLATE_DIR, init.templateDir, a config
// source of the call) copies its config and hooks/ into the new .git, and
// clone's --config KEY=VALUE writes the new .git/config — they are writes
// to that repository's config and hooks (rule kind git-config): through
// the real client a `git init --template=T src/sub/inner` made Hermes's
// git status at the root run the template's core.fsmonitor outside the
// sandbox (testdata/redteam/round16/README.md).
func (c *collector) gitClone(cmd *shell.Command, p shell.ParsedOpts, templated bool) {
	ops := p.OperandValues()
	dir := ""
	switch {
	case cmd.Is("clone"):
		switch {
		case len(ops) >= 2:
			dir = ops[1]
			c.addNewDir(ops[1], "git clone")
		case len(ops) == 1:
			if name := shell.CloneName(ops[0]); name != "" {
				dir = name
				c.addNewDir(name, "git clone")
			}
		}
		templated = templated || p.Has("c", "config")
	case cmd.Is("worktree", "add"):
		if len(ops) > 0 {
			c.addNewDir(ops[0], "git worktree add")
		}
		return
	case cmd.Is("init"):
		dir = "."
		if len(ops) > 0 {
			dir = ops[0]
		}
		c.addNewDir(strings.TrimRight(dir, "/")+"/.git", "git init")
	default:
		return
	}
	if dir == "" || p.Has("", "bare", "mirror") || !(templated || p.Has("", "template")) {
		return
	}
	g := strings.TrimRight(dir, "/") + "/.git/"
	c.add(g+"config", opWrite, "git "+cmd.SubName()+" (template or --config)")
	c.add(g+"hooks/"+placeholder, opWrite, "git "+cmd.SubName()+" (template)")
}

// gitTemplated reports a git call whose new repositories may get their
// configuration and hooks from a template the call itself names: -c
// init.templateDir=…, GIT_TEMPLATE_DIR, or a configuration source set for
// the call (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT, GIT_CONFIG_GLOBAL,
// GIT_CONFIG_SYSTEM, HOME, XDG_CONFIG_HOME), any of which can carry
// init.templateDir.
func (c *collector) gitTemplated(g shell.ParsedOpts) bool {
	for _, o := range g.Opts {
		if o.HasValue && o.Name == "c" && strings.HasPrefix(strings.ToLower(o.Value), "init.templatedir") {
			return true
		}
	}
	for _, k := range [...]string{"GIT_TEMPLATE_DIR", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "HOME", "XDG_CONFIG_HOME"} {
		if _, ok := c.inv.Env[k]; ok {
			return true
		}
	}
	return false
}

// addNewDir adds a directory the command creates, and an entry below it
// (a new `.harness/features/<dir>` is another feature's directory).
func (c *collector) addNewDir(p, what string) {
	if p == "" {
		return
	}
	c.add(p, opMkdir, what)
	c.add(strings.TrimRight(p, "/")+"/"+placeholder, opWrite, what)
}

// remoteOperand reports an scp operand that names a remote file
// (`host:path`, `user@host:path`, `scp://…`); a colon after a slash is part
// of a local path.
func remoteOperand(a string) bool {
	if strings.HasPrefix(a, "scp://") {
		return true
	}
	k := strings.IndexByte(a, ':')
	if k <= 0 {
		return false
	}
	return !strings.Contains(a[:k], "/")
}
