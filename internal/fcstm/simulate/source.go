package simulate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// A Source yields the cycles of a run one at a time, so that a long input
// is never held as a whole list of cycles. Next returns ok false at the
// end of the input; an error is located in the input.
type Source interface {
	Next() (events []string, ok bool, err error)
}

// SliceSource yields the cycles of a list.
type SliceSource struct{ Cycles [][]string }

// Next implements Source.
func (s *SliceSource) Next() ([]string, bool, error) {
	if len(s.Cycles) == 0 {
		return nil, false, nil
	}
	c := s.Cycles[0]
	s.Cycles = s.Cycles[1:]
	return c, true, nil
}

// MaxLineBytes is the longest line a LineSource accepts (1 MiB): no list of
// events is that long, and a longer line is a wrong input, not a cycle.
const MaxLineBytes = 1 << 20

// LineSource reads one cycle per line (events separated by commas or
// spaces, as in the interactive mode) and counts every byte read against
// a limit, so that an endless stream is refused instead of run forever.
type LineSource struct {
	r     *bufio.Reader
	name  string // the input's name in errors ("standard input")
	limit int64
	read  int64
	line  int
}

// NewLineSource reads lines from r, at most limit bytes in all; name
// names the input in errors.
func NewLineSource(r io.Reader, name string, limit int64) *LineSource {
	return &LineSource{r: bufio.NewReaderSize(r, 64<<10), name: name, limit: limit}
}

// Next implements Source.
func (s *LineSource) Next() ([]string, bool, error) {
	var line []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		s.read += int64(len(chunk))
		if s.read > s.limit {
			return nil, false, fmt.Errorf("%s is larger than the input limit of %d bytes (--max-input-bytes)", s.name, s.limit)
		}
		if len(line)+len(chunk) > MaxLineBytes+1 { // +1: the newline itself
			return nil, false, fmt.Errorf("%s: line %d is longer than %d bytes", s.name, s.line+1, MaxLineBytes)
		}
		line = append(line, chunk...)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) == 0:
			return nil, false, nil
		case err != nil && !errors.Is(err, io.EOF):
			return nil, false, fmt.Errorf("reading %s: %w", s.name, err)
		}
		s.line++
		return SplitLine(string(bytes.TrimSuffix(line, []byte("\n")))), true, nil
	}
}

// StepsSource reads a JSON array of cycles, each an array of event paths,
// one cycle at a time. Errors carry the line:col and the JSON path of the
// offending value.
type StepsSource struct {
	Name  string // when set, errors start with "Name:"
	data  []byte
	dec   *json.Decoder
	index int  // of the next cycle
	begun bool // the opening bracket was read
	done  bool
}

// NewStepsSource reads the cycles of data.
func NewStepsSource(data []byte) *StepsSource {
	return &StepsSource{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
}

// Next implements Source.
func (s *StepsSource) Next() ([]string, bool, error) {
	evs, ok, err := s.next()
	if err != nil && s.Name != "" {
		err = fmt.Errorf("%s:%w", s.Name, err)
	}
	return evs, ok, err
}

func (s *StepsSource) next() ([]string, bool, error) {
	if s.done {
		return nil, false, nil
	}
	if !s.begun {
		s.begun = true
		if err := s.open("$", "want an array of cycles (arrays of event paths)"); err != nil {
			return nil, false, err
		}
	}
	if !s.dec.More() {
		if err := s.close(); err != nil {
			return nil, false, err
		}
		s.done = true
		return nil, false, nil
	}
	path := fmt.Sprintf("$[%d]", s.index)
	if err := s.open(path, "want an array of event paths"); err != nil {
		return nil, false, err
	}
	evs := []string{}
	for j := 0; s.dec.More(); j++ {
		at := s.at()
		tok, err := s.dec.Token()
		if err != nil {
			return nil, false, s.syntax(err)
		}
		e, ok := tok.(string)
		if !ok || e == "" {
			s.done = true // the source stops at a wrong value
			return nil, false, fmt.Errorf("%s: %s[%d]: want an event path (a non-empty string), got %s", at, path, j, kindOf(tok))
		}
		evs = append(evs, e)
	}
	if _, err := s.dec.Token(); err != nil { // the cycle's closing bracket
		return nil, false, s.syntax(err)
	}
	s.index++
	return evs, true, nil
}

// open reads an opening bracket at path.
func (s *StepsSource) open(path, want string) error {
	at := s.at()
	tok, err := s.dec.Token()
	if err != nil {
		return s.syntax(err)
	}
	if tok != json.Delim('[') {
		s.done = true
		return fmt.Errorf("%s: %s: %s, got %s", at, path, want, kindOf(tok))
	}
	return nil
}

// close reads the outer closing bracket, after which nothing may follow.
func (s *StepsSource) close() error {
	if _, err := s.dec.Token(); err != nil {
		return s.syntax(err)
	}
	if s.dec.More() {
		s.done = true
		return fmt.Errorf("%s: more data after the array of cycles", s.at())
	}
	return nil
}

// offset is a byte offset in the data, printed as line:col. The
// conversion scans the data, so it is done only when an error is printed.
type offset struct {
	data []byte
	off  int
}

func (o offset) String() string {
	line, col := lineCol(o.data, o.off)
	return fmt.Sprintf("%d:%d", line, col)
}

// at is the offset of the next value: the decoder's offset is past the
// previous token, so separators and white space are skipped first.
func (s *StepsSource) at() offset {
	off := int(s.dec.InputOffset())
	for off < len(s.data) && bytes.IndexByte([]byte(" \t\r\n,:"), s.data[off]) >= 0 {
		off++
	}
	return offset{s.data, off}
}

// syntax locates a decoding error.
func (s *StepsSource) syntax(err error) error {
	s.done = true
	var se *json.SyntaxError
	off := len(s.data)
	if errors.As(err, &se) {
		off = int(se.Offset) - 1 // Offset is past the offending byte
	} else if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return err
	} else {
		err = errors.New("unexpected end of the JSON input")
	}
	line, col := lineCol(s.data, off)
	return fmt.Errorf("%d:%d: %v", line, col, err)
}

func kindOf(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return "object"
		}
		return "array"
	case string:
		if t == "" {
			return "an empty string"
		}
		return "string"
	case float64, json.Number:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

// ParseSteps reads a JSON array of cycles, each an array of event paths.
// Errors carry the position and the JSON path of the offending value.
func ParseSteps(data []byte) ([][]string, error) {
	src := NewStepsSource(data)
	out := [][]string{}
	for {
		c, ok, err := src.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		out = append(out, c)
	}
}
