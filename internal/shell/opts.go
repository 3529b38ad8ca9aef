package shell

import "strings"

// OptSpec describes a program's options for skipping them: which short
// letters and which long names take a value (in the next word when not
// attached). Options are skipped until the first operand.
type OptSpec struct {
	// Short lists the short option letters that take a value.
	Short string
	// Long lists the long option names (without "--") that take a value.
	Long []string
	// NumericShort accepts "-5"-style numeric options (nice).
	NumericShort bool
}

func (o OptSpec) longTakes(name string) bool {
	for _, l := range o.Long {
		if l == name {
			return true
		}
	}
	return false
}

// FirstOperand returns the index of the first operand in vals at or after
// start, skipping options (and their values) by spec; len(vals) when none.
// "--" ends the options (the operand after it is returned).
func (o OptSpec) FirstOperand(vals []string, start int) int {
	i := start
	for i < len(vals) {
		v := vals[i]
		if v == "--" {
			return i + 1
		}
		if strings.HasPrefix(v, "--") {
			name := v[2:]
			if strings.IndexByte(name, '=') >= 0 {
				i++
				continue
			}
			if o.longTakes(name) {
				i += 2
				continue
			}
			i++
			continue
		}
		if len(v) > 1 && v[0] == '-' {
			if o.NumericShort && v[1] >= '0' && v[1] <= '9' {
				i++
				continue
			}
			consumed := false
			for k := 1; k < len(v); k++ {
				if strings.IndexByte(o.Short, v[k]) >= 0 {
					if k == len(v)-1 {
						consumed = true
					}
					break
				}
			}
			i++
			if consumed {
				i++
			}
			continue
		}
		return i
	}
	return len(vals)
}

// Flags returns the set of short option letters present in vals before
// the first operand (per spec), and the long options (without "--", value
// after "=" dropped).
func (o OptSpec) Flags(vals []string, start int) (short map[byte]bool, long map[string]string) {
	short = map[byte]bool{}
	long = map[string]string{}
	i := start
	for i < len(vals) {
		v := vals[i]
		if v == "--" || len(v) < 2 || v[0] != '-' {
			return
		}
		if strings.HasPrefix(v, "--") {
			name := v[2:]
			if k := strings.IndexByte(name, '='); k >= 0 {
				long[name[:k]] = name[k+1:]
				i++
				continue
			}
			if o.longTakes(name) && i+1 < len(vals) {
				long[name] = vals[i+1]
				i += 2
				continue
			}
			long[name] = ""
			i++
			continue
		}
		next := 1
		for k := 1; k < len(v); k++ {
			short[v[k]] = true
			if strings.IndexByte(o.Short, v[k]) >= 0 {
				if k == len(v)-1 {
					next = 2
				}
				break
			}
		}
		i += next
	}
	return
}
