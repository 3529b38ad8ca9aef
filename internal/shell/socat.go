package shell

import "strings"

// SocatFile is a file one of socat's addresses opens (socat(1) ADDRESS
// TYPES).
type SocatFile struct {
	// Path is the file's name as written.
	Path string
	// Type is the address type, upper-case ("OPEN", "GOPEN", "UNIX-LISTEN").
	Type string
	// Write: data flows into the file (not with rdonly, nor for the
	// first address of -u or the second of -U).
	Write bool
	// Append: the address has the append option.
	Append bool
	// Socket: the address creates a Unix socket at Path (a listening or
	// receiving UNIX address).
	Socket bool
}

// SocatFiles returns the files socat's address operands open: OPEN,
// CREATE, GOPEN and FILE (an alias of GOPEN), a bare path (socat reads an
// address with a "/" and no type as GOPEN), and the sockets of UNIX-LISTEN
// and UNIX-RECV addresses. Data flows both ways unless -u (first to second)
// or -U (second to first) is given.
func SocatFiles(p ParsedOpts) []SocatFile {
	ops := p.OperandValues()
	var out []SocatFile
	for i, a := range ops {
		typ, rest, ok := strings.Cut(a, ":")
		if !ok || strings.Contains(typ, "/") {
			if !strings.Contains(a, "/") {
				continue
			}
			typ, rest = "GOPEN", a
		}
		file, opts, _ := strings.Cut(rest, ",")
		f := SocatFile{Path: file, Type: strings.ToUpper(typ)}
		switch f.Type {
		case "UNIX-LISTEN", "UNIX-L", "UNIX-RECVFROM", "UNIX-RECV":
			f.Socket = true
		case "OPEN", "CREATE", "CREAT", "GOPEN", "FILE":
			o := "," + opts + ","
			f.Append = strings.Contains(o, ",append,")
			f.Write = !strings.Contains(o, ",rdonly,") && !(p.Has("u") && i == 0) && !(p.Has("U") && i == 1)
		default:
			continue
		}
		out = append(out, f)
	}
	return out
}
