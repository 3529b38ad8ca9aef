package pathguard

import (
	"slices"
	"strings"

	"github.com/superagent-harness/harness/internal/shell"
)

// More writers of testdata/corpus/README.md §3.3 (found by a user attacking the
// installed hook): script's typescript and log files, pip's install
// target, base64's output file, device nodes and FIFOs, and paths through
// /proc/<pid>/cwd.

// moreWriters adds the targets of the programs below; it reports whether
// prog was one of them.
func (c *collector) moreWriters(prog string, args []string) bool {
	switch prog {
	case "script":
		// script [opts] [file]: the typescript (default ./typescript) and
		// the -O/-I/-B/-T log files are written
		p := c.parsed()
		for _, v := range p.Values("OIBT", "log-out", "log-in", "log-io", "log-timing", "timing") {
			c.add(v, opWrite, "script log")
		}
		if ops := p.OperandValues(); len(ops) > 0 {
			c.add(ops[0], writeOrAppend(p.Has("a", "append")), "script")
		} else if !p.Has("OB", "log-out", "log-io") {
			c.add("typescript", writeOrAppend(p.Has("a", "append")), "script")
		}
		return true
	case "pip", "pip3", "pip2", "uv":
		c.pip(args)
		return true
	case "ssh-keygen":
		// -f FILE is the key file it writes (and FILE.pub) when it makes,
		// re-encrypts, re-comments or edits one (-p, -c, -R, -H, -k, -s);
		// printing, fingerprinting, finding and verifying only read it
		p := c.parsed()
		if p.Has("lyFBeLQ") || p.Has("Y") && !slices.Contains(p.Values("Y"), "sign") {
			return true
		}
		for _, v := range p.Values("f") {
			c.add(v, opWrite, "ssh-keygen -f")
			if !p.Has("pcRHksDi") {
				c.add(v+".pub", opWrite, "ssh-keygen -f")
			}
		}
		return true
	case "mkfifo":
		p := c.parsed()
		for _, f := range p.OperandValues() {
			c.add(f, opSpecial, "mkfifo")
		}
		return true
	case "mknod":
		p := c.parsed()
		if ops := p.OperandValues(); len(ops) > 0 {
			c.add(ops[0], opSpecial, "mknod")
		}
		return true
	}
	return false
}

func writeOrAppend(appendMode bool) op {
	if appendMode {
		return opAppend
	}
	return opWrite
}

// pip judges `pip install --target DIR | -t DIR | --prefix DIR | --root DIR`
// (also `uv pip install …`): the install writes and may replace everything
// below DIR.
func (c *collector) pip(args []string) {
	if len(args) > 0 && args[0] == "pip" { // uv pip …
		args = args[1:]
	}
	p := c.parsed()
	ops := p.OperandValues() // args may be a tail of c.args (python -m pip, uv pip)
	if len(ops) == 0 || ops[0] != "install" && ops[0] != "download" && ops[0] != "wheel" {
		return
	}
	for _, d := range p.Values("t", "target", "prefix", "root") {
		c.add(d, opTree, "pip "+ops[0]+" --target")
	}
	if ops[0] != "install" {
		for _, d := range p.Values("dw", "dest", "wheel-dir") {
			c.add(d, opTree, "pip "+ops[0]+" -d")
		}
	}
	for _, d := range p.Values("", "log", "report") {
		c.add(d, opWrite, "pip --log")
	}
}

// procCwd maps a path through /proc/<pid>/cwd (`/proc/self/cwd/x`,
// `/proc/$$/cwd/x`: the shell's own working directory, or another process's
// the guard cannot know better) to the directory the command runs in, and
// /proc/<pid>/root/x to /x. ok is false for other paths.
func procCwd(w shell.Word, base string) (string, bool) {
	v := w.Value
	if !strings.HasPrefix(v, "/proc/") {
		return "", false
	}
	pid, rest, _ := strings.Cut(v[len("/proc/"):], "/")
	if !w.Known && pid != "" && !isDigits(pid) && pid != "self" && pid != "thread-self" {
		return "", false
	}
	if pid != "" && !isDigits(pid) && pid != "self" && pid != "thread-self" {
		return "", false
	}
	sub, tail, _ := strings.Cut(rest, "/")
	switch sub {
	case "cwd":
		if tail == "" {
			return base, true
		}
		return absJoin(base, tail), true
	case "root":
		return "/" + tail, true
	}
	return "", false
}

// socat writes the files of its OPEN/CREATE/GOPEN/FILE addresses and
// creates the socket of a listening or receiving UNIX address (a socket in
// .harness/ is planting, testdata/corpus/README.md §9.4): shell.SocatFiles.
func (c *collector) socat(args []string) {
	for _, f := range shell.SocatFiles(c.parsed()) {
		switch {
		case f.Socket:
			c.add(f.Path, opSpecial, "socat "+f.Type)
		case f.Write:
			c.add(f.Path, writeOrAppend(f.Append), "socat "+f.Type)
		}
	}
}
