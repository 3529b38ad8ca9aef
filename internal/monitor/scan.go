package monitor

import (
	"encoding/json"
	"strconv"
)

// scanLine reads the members of one transcript line that ReadTranscript
// needs (transcriptLine) in one pass over the bytes, descending only into
// "message" and its "usage", and skipping every other value without
// decoding it: the hook runs it on every tool call, where encoding/json's
// validation and reflection cost more than the rest of the measurement.
// ok is false for anything it does not handle itself (a needed string with
// an escape, a number that is not a plain integer, malformed JSON): the
// caller then decodes the line with encoding/json.
func scanLine(b []byte) (l transcriptLine, ok bool) {
	s := jscan{b: b}
	ok = s.object(func(key string) bool {
		switch key {
		case "type":
			return s.str(&l.Type)
		case "isSidechain":
			return s.boolean(&l.IsSidechain)
		case "isApiErrorMessage":
			return s.boolean(&l.IsAPIErrorMessage)
		case "requestedModel":
			return s.str(&l.RequestedModel)
		case "timestamp":
			return s.str(&l.Timestamp)
		case "message":
			if s.peek() != '{' {
				l.Message = nil
				return s.null() // anything else is a type error for encoding/json
			}
			msg := &struct {
				Model string `json:"model"`
				Usage *Usage `json:"usage"`
			}{}
			l.Message = msg
			return s.object(func(key string) bool {
				switch key {
				case "model":
					return s.str(&msg.Model)
				case "usage":
					if s.peek() != '{' {
						return s.null()
					}
					u := &Usage{}
					msg.Usage = u
					return s.object(func(key string) bool {
						switch key {
						case "input_tokens":
							return s.int(&u.InputTokens)
						case "cache_read_input_tokens":
							return s.int(&u.CacheReadInputTokens)
						case "cache_creation_input_tokens":
							return s.int(&u.CacheCreationInputTokens)
						case "output_tokens":
							return s.int(&u.OutputTokens)
						}
						return s.skip()
					})
				}
				return s.skip()
			})
		}
		return s.skip()
	})
	if ok {
		s.space()
		ok = s.i == len(s.b)
	}
	return l, ok
}

// decodeLine is scanLine, else encoding/json.
func decodeLine(b []byte) (transcriptLine, bool) {
	if l, ok := scanLine(b); ok {
		return l, true
	}
	var l transcriptLine
	return l, json.Unmarshal(b, &l) == nil
}

// jscan is a minimal JSON tokenizer over b.
type jscan struct {
	b []byte
	i int
}

func (s *jscan) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

func (s *jscan) peek() byte {
	s.space()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// object reads {"k": v, …}, calling member for each key with the cursor
// on its value; member must consume the value and report success. A
// repeated key is handed over again (the last one wins, as in encoding/json).
func (s *jscan) object(member func(key string) bool) bool {
	if s.peek() != '{' {
		return false
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		return true
	}
	for {
		var key string
		if s.peek() != '"' || !s.str(&key) {
			return false
		}
		if s.peek() != ':' {
			return false
		}
		s.i++
		if !member(key) {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// str reads a string without escapes into dst (false for one with an
// escape or a control byte: encoding/json decides those).
func (s *jscan) str(dst *string) bool {
	if s.peek() != '"' {
		return false
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			*dst = string(s.b[start:j])
			s.i = j + 1
			return true
		case c == '\\' || c < 0x20:
			return false
		}
	}
	return false
}

// null reads a JSON null.
func (s *jscan) null() bool {
	s.space()
	if len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

func (s *jscan) boolean(dst *bool) bool {
	s.space()
	switch {
	case len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "true":
		*dst, s.i = true, s.i+4
		return true
	case len(s.b)-s.i >= 5 && string(s.b[s.i:s.i+5]) == "false":
		*dst, s.i = false, s.i+5
		return true
	}
	return false
}

// int reads a plain integer (digits, an optional '-'); null leaves dst 0.
func (s *jscan) int(dst *int64) bool {
	s.space()
	if len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	j := s.i
	if j < len(s.b) && s.b[j] == '-' {
		j++
	}
	k := j
	for k < len(s.b) && '0' <= s.b[k] && s.b[k] <= '9' {
		k++
	}
	if k == j || (k < len(s.b) && (s.b[k] == '.' || s.b[k] == 'e' || s.b[k] == 'E')) {
		return false
	}
	n, err := strconv.ParseInt(string(s.b[s.i:k]), 10, 64)
	if err != nil {
		return false
	}
	*dst, s.i = n, k
	return true
}

// skip passes over one value of any kind, checking only its nesting and
// strings.
func (s *jscan) skip() bool {
	switch c := s.peek(); {
	case c == '"':
		for j := s.i + 1; j < len(s.b); j++ {
			switch s.b[j] {
			case '\\':
				j++
			case '"':
				s.i = j + 1
				return true
			}
		}
		return false
	case c == '{' || c == '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return true
				}
			case '"':
				if !s.skip() {
					return false
				}
				continue
			}
			s.i++
		}
		return false
	case c == 0:
		return false
	default: // number, true, false, null
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return true
			}
			s.i++
		}
		return true
	}
}
