// Package monitor measures a Generator session for the Feature Reset
// triggers of docs/protocol.md §8.1 and decides when they fire: the context
// tokens in use, read from the end of the Claude Code transcript the hook is
// handed (transcript_path), against the model's context window; the
// feature's retries; the session's age. The hook records the figures in
// .harness/claude_code_context_state.json (workspace.ContextState) and
// Hermes-side commands read them back (docs/performance.md says what it
// costs per hook call).
package monitor

import (
	"bytes"
	"errors"
	"io/fs"

	"github.com/superagent-harness/harness/internal/fsutil"
)

// Usage is the usage object of one assistant message (Messages API, as
// the transcript records it): token counts.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
}

// Total is the context the message accounts for: input + cache read +
// cache creation + output tokens (the output becomes input of the next
// request).
func (u Usage) Total() int64 {
	return u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens + u.OutputTokens
}

// Reading is what the end of a transcript says about the session.
type Reading struct {
	// Found is true when an assistant message with usage was found within
	// the bound.
	Found bool
	// Model is the model the session asked for: the message's
	// requestedModel (which keeps a "[1m]" suffix), else message.model.
	Model string
	// Usage is the latest main-thread assistant message's usage.
	Usage Usage
	// At is that message's timestamp (as written, ISO 8601).
	At string
	// PendingRequest is true when the transcript records a main-loop API
	// request after that message and no answer to it: at PreCompact time it
	// means the request failed and the compaction is the client's recovery
	// from a context-limit error (Claude Code 2.1.332, checked with the
	// real client in internal/e2e).
	PendingRequest bool
	// BytesRead is how much of the file was read.
	BytesRead int64
	// Truncated is true when the bound stopped the read before an assistant
	// message was found.
	Truncated bool
}

// Bounds of one transcript read: at most MaxTranscriptRead bytes from the
// end, lines longer than MaxTranscriptLine skipped unread (a tool result
// of a large file; an assistant message is never that long in practice).
const (
	MaxTranscriptRead = 16 << 20
	MaxTranscriptLine = 4 << 20
)

// transcriptLine is the part of one transcript JSON line the reader decodes.
type transcriptLine struct {
	Type              string `json:"type"`
	IsSidechain       bool   `json:"isSidechain"`
	IsAPIErrorMessage bool   `json:"isApiErrorMessage"`
	RequestedModel    string `json:"requestedModel"`
	Timestamp         string `json:"timestamp"`
	Message           *struct {
		Model string `json:"model"`
		Usage *Usage `json:"usage"`
	} `json:"message"`
}

var (
	markAssistant  = []byte(`"type":"assistant"`)
	markAPIRequest = []byte(`"type":"api-request"`)
)

// ReadTranscript reads the transcript at path backwards from its end (no
// full parse: 64 KB chunks, bounded by MaxTranscriptRead) to the latest
// main-thread assistant message that carries usage, skipping subagent
// (isSidechain), synthetic and API-error messages. A missing file, or none
// found within the bound, is a Reading with Found false and no error; the
// error is for a path that is not a regular file or cannot be read.
//
// Format (Claude Code 2.1.332, verified with the real client): JSON Lines,
// one object per line; an assistant content block is a line
// {"type":"assistant","requestedModel":…,"timestamp":…,"message":{"model":…,
// "usage":{"input_tokens":…,"cache_read_input_tokens":…,
// "cache_creation_input_tokens":…,"output_tokens":…}}} (one line per
// content block, each with the message's usage); each API request is first
// recorded as {"type":"api-request",…}.
func ReadTranscript(path string) (Reading, error) {
	var rd Reading
	if path == "" {
		return rd, nil
	}
	f, st, err := fsutil.OpenRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return rd, nil
	}
	if err != nil {
		return rd, err
	}
	defer f.Close()
	stats, err := fsutil.EachLineBackward(f, st.Size(), fsutil.BackwardOptions{MaxBytes: MaxTranscriptRead, MaxLine: MaxTranscriptLine, FirstChunk: 8 << 10},
		func(line []byte) bool {
			isAssistant := bytes.Contains(line, markAssistant)
			if !isAssistant {
				if bytes.Contains(line, markAPIRequest) {
					if l, ok := decodeLine(line); ok && l.Type == "api-request" {
						rd.PendingRequest = true
					}
				}
				return true
			}
			l, ok := decodeLine(line)
			if !ok || l.Type != "assistant" || l.IsSidechain || l.IsAPIErrorMessage ||
				l.Message == nil || l.Message.Usage == nil || l.Message.Model == "<synthetic>" {
				return true
			}
			rd.Found = true
			rd.Usage = *l.Message.Usage
			rd.Model = l.RequestedModel
			if rd.Model == "" {
				rd.Model = l.Message.Model
			}
			rd.At = l.Timestamp
			return false
		})
	rd.BytesRead = stats.Read
	rd.Truncated = !rd.Found && stats.Truncated
	return rd, err
}
