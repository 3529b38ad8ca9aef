package workspace

// Pattern is one id or timestamp format of the protocol, matched by a
// hand-written scanner instead of a regexp compiled at package init: every
// hook process links this package, and Stop checks one timestamp per
// eval_log line. String returns the equivalent regular expression (RE2
// syntax; ids_test.go checks both agree).
type Pattern struct {
	expr  string
	match func(string) bool
}

// MatchString reports whether s is entirely of the pattern's format.
func (p Pattern) MatchString(s string) bool { return p.match(s) }

// String returns the pattern as a regular expression.
func (p Pattern) String() string { return p.expr }

// Id patterns of docs/protocol.md §2.
var (
	// FeatureIDPattern matches a feature id: f<number>, sub-features f<number>-<n>.
	FeatureIDPattern = Pattern{`^f[0-9]+(-[0-9]+)*$`, isFeatureID}
	// CheckpointIDPattern matches a feature checkpoint id cp-<feature_id>-<seq>.
	CheckpointIDPattern = Pattern{`^cp-f[0-9]+(-[0-9]+)*-[0-9]+$`, isCheckpointID}
	// SprintIDPattern matches sprint_<YYYYMMDD>_<N>.
	SprintIDPattern = Pattern{`^sprint_[0-9]{8}_[0-9]+$`, isSprintID}
	// UTCZPattern is the accepted timestamp shape (testdata/sprints/README.md §4):
	// YYYY-MM-DDTHH:MM:SS, optional fraction, Z (digits only, no range check).
	UTCZPattern = Pattern{`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$`, isUTCZ}
)

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digits returns the length of the run of ASCII digits at the start of s.
func digits(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

// dashNumbers reports whether s is a sequence of groups "-<digits>" (maybe none).
func dashNumbers(s string) bool {
	for len(s) > 0 {
		if s[0] != '-' {
			return false
		}
		n := digits(s[1:])
		if n == 0 {
			return false
		}
		s = s[1+n:]
	}
	return true
}

func isFeatureID(s string) bool {
	if len(s) < 2 || s[0] != 'f' {
		return false
	}
	n := digits(s[1:])
	return n > 0 && dashNumbers(s[1+n:])
}

func isCheckpointID(s string) bool {
	// cp-<feature id>-<seq>: the last "-<digits>" group is the sequence,
	// the rest must be a feature id.
	if len(s) < 3 || s[:3] != "cp-" {
		return false
	}
	i := len(s)
	for i > 0 && isDigit(s[i-1]) {
		i--
	}
	if i == len(s) || i <= 3 || s[i-1] != '-' {
		return false
	}
	return isFeatureID(s[3 : i-1])
}

func isSprintID(s string) bool {
	const prefix = "sprint_"
	if len(s) < len(prefix)+10 || s[:len(prefix)] != prefix {
		return false
	}
	s = s[len(prefix):]
	if digits(s) != 8 || s[8] != '_' {
		return false
	}
	rest := s[9:]
	return len(rest) > 0 && digits(rest) == len(rest)
}

func isUTCZ(s string) bool {
	// 0123456789012345678
	// YYYY-MM-DDTHH:MM:SS, tested position by position (validate and the
	// Stop hook check one per eval_log line)
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
		!isDigit(s[0]) || !isDigit(s[1]) || !isDigit(s[2]) || !isDigit(s[3]) || !isDigit(s[5]) || !isDigit(s[6]) ||
		!isDigit(s[8]) || !isDigit(s[9]) || !isDigit(s[11]) || !isDigit(s[12]) || !isDigit(s[14]) || !isDigit(s[15]) ||
		!isDigit(s[17]) || !isDigit(s[18]) {
		return false
	}
	rest := s[19:]
	if rest[0] == '.' {
		n := digits(rest[1:])
		if n == 0 {
			return false
		}
		rest = rest[1+n:]
	}
	return rest == "Z"
}
