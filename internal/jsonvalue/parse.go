package jsonvalue

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stateproof/stateproof/internal/lineend"
)

// SyntaxError is input that is not JSON, with the position of the problem.
type SyntaxError struct {
	Pos Pos
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg) }

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 512

// Parse reads exactly one JSON value (surrounded by optional white space).
// Object members are kept in input order, duplicates included: whether a
// duplicate key is an error is the caller's decision, and the caller needs
// the key's position to say where it is. Numbers are parsed as float64, as
// JavaScript does. A string holding a lone UTF-16 surrogate escape is
// refused, because no two implementations agree on how to hash it.
func Parse(data []byte) (*Value, error) {
	p := &parser{data: data, line: 1, col: 1}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.off < len(p.data) {
		return nil, p.errorf("unexpected %s after the JSON value", p.describe())
	}
	return v, nil
}

type parser struct {
	data      []byte
	off       int
	line, col int
}

func (p *parser) pos() Pos { return Pos{p.line, p.col} }

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Pos: p.pos(), Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) describe() string {
	if p.off >= len(p.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.data[p.off:])
	return strconv.QuoteRune(r)
}

// advance moves over n bytes that hold no newline.
func (p *parser) advance(n int) {
	p.col += utf8.RuneCount(p.data[p.off : p.off+n])
	p.off += n
}

func (p *parser) skipSpace() {
	for p.off < len(p.data) {
		switch p.data[p.off] {
		case ' ', '\t':
			p.off++
			p.col++
		case '\r', '\n':
			// "\n", "\r\n" and a lone "\r" each end a line, as editors and
			// the language server count them (package lineend).
			p.off += lineend.Len(string(p.data[p.off:min(p.off+2, len(p.data))]), 0)
			p.line++
			p.col = 1
		default:
			return
		}
	}
}

// value parses one value and records where it ends.
func (p *parser) value(depth int) (*Value, error) {
	v, err := p.valueAt(depth)
	if err == nil {
		v.End = p.pos()
	}
	return v, err
}

func (p *parser) valueAt(depth int) (*Value, error) {
	if depth > maxDepth {
		return nil, p.errorf("nesting deeper than %d levels", maxDepth)
	}
	if p.off >= len(p.data) {
		return nil, p.errorf("unexpected end of input, expected a value")
	}
	start := p.pos()
	switch c := p.data[p.off]; {
	case c == '{':
		return p.object(depth, start)
	case c == '[':
		return p.array(depth, start)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &Value{Kind: String, Str: s, Pos: start}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(start)
	default:
		for _, lit := range []struct {
			text string
			v    Value
		}{{"true", Value{Kind: Bool, Bool: true}}, {"false", Value{Kind: Bool}}, {"null", Value{Kind: Null}}} {
			if len(p.data)-p.off >= len(lit.text) && string(p.data[p.off:p.off+len(lit.text)]) == lit.text {
				p.advance(len(lit.text))
				v := lit.v
				v.Pos = start
				return &v, nil
			}
		}
		return nil, p.errorf("unexpected %s, expected a value", p.describe())
	}
}

func (p *parser) object(depth int, start Pos) (*Value, error) {
	v := &Value{Kind: Object, Pos: start, Members: []Member{}}
	p.advance(1)
	p.skipSpace()
	if p.off < len(p.data) && p.data[p.off] == '}' {
		p.advance(1)
		return v, nil
	}
	for {
		p.skipSpace()
		if p.off >= len(p.data) || p.data[p.off] != '"' {
			return nil, p.errorf("unexpected %s, expected a string key", p.describe())
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.off >= len(p.data) || p.data[p.off] != ':' {
			return nil, p.errorf("unexpected %s, expected ':' after object key", p.describe())
		}
		p.advance(1)
		p.skipSpace()
		val, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.Members = append(v.Members, Member{Key: key, Value: val})
		p.skipSpace()
		if p.off >= len(p.data) {
			return nil, p.errorf("unexpected end of input, expected ',' or '}'")
		}
		switch p.data[p.off] {
		case ',':
			p.advance(1)
		case '}':
			p.advance(1)
			return v, nil
		default:
			return nil, p.errorf("unexpected %s, expected ',' or '}'", p.describe())
		}
	}
}

func (p *parser) array(depth int, start Pos) (*Value, error) {
	v := &Value{Kind: Array, Pos: start, Elems: []*Value{}}
	p.advance(1)
	p.skipSpace()
	if p.off < len(p.data) && p.data[p.off] == ']' {
		p.advance(1)
		return v, nil
	}
	for {
		p.skipSpace()
		e, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.Elems = append(v.Elems, e)
		p.skipSpace()
		if p.off >= len(p.data) {
			return nil, p.errorf("unexpected end of input, expected ',' or ']'")
		}
		switch p.data[p.off] {
		case ',':
			p.advance(1)
		case ']':
			p.advance(1)
			return v, nil
		default:
			return nil, p.errorf("unexpected %s, expected ',' or ']'", p.describe())
		}
	}
}

func (p *parser) number(start Pos) (*Value, error) {
	i := p.off
	d := p.data
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		return nil, p.errorf("malformed number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			p.advance(i - p.off)
			return nil, p.errorf("malformed number: expected a digit after '.'")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			p.advance(i - p.off)
			return nil, p.errorf("malformed number: expected a digit in the exponent")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	text := string(d[p.off:i])
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || (f == 0 && nonzeroMantissa(text)) {
		// Out of range: JavaScript gives ±Infinity, which JSON cannot carry
		// back out and no model field accepts; or a nonzero number too small
		// for a double, which would silently read as 0.
		return nil, p.errorf("number %s is out of the range of a double", text)
	}
	p.advance(i - p.off)
	return &Value{Kind: Number, Num: f, Text: text, Pos: start}, nil
}

// nonzeroMantissa reports whether a JSON number has a nonzero digit before
// its exponent.
func nonzeroMantissa(text string) bool {
	for _, c := range text {
		switch {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
}

func (p *parser) str() (string, error) {
	p.advance(1) // opening quote
	var buf []byte
	for {
		if p.off >= len(p.data) {
			return "", p.errorf("unterminated string")
		}
		c := p.data[p.off]
		switch {
		case c == '"':
			p.advance(1)
			return string(buf), nil
		case c == '\\':
			r, err := p.escape()
			if err != nil {
				return "", err
			}
			buf = utf8.AppendRune(buf, r)
		case c < 0x20:
			return "", p.errorf("control character %U in string must be escaped", rune(c))
		default:
			r, size := utf8.DecodeRune(p.data[p.off:])
			if r == utf8.RuneError && size <= 1 {
				return "", p.errorf("invalid UTF-8 in string")
			}
			buf = append(buf, p.data[p.off:p.off+size]...)
			p.advance(size)
		}
	}
}

func (p *parser) escape() (rune, error) {
	if p.off+1 >= len(p.data) {
		return 0, p.errorf("unterminated escape")
	}
	c := p.data[p.off+1]
	simple := map[byte]rune{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}
	if r, ok := simple[c]; ok {
		p.advance(2)
		return r, nil
	}
	if c != 'u' {
		return 0, p.errorf("invalid escape '\\%c'", c)
	}
	r1, err := p.hex4()
	if err != nil {
		return 0, err
	}
	if !utf16.IsSurrogate(r1) {
		return r1, nil
	}
	if r1 < 0xDC00 && p.off+1 < len(p.data) && p.data[p.off] == '\\' && p.data[p.off+1] == 'u' {
		save := *p
		r2, err := p.hex4()
		if err == nil && r2 >= 0xDC00 && r2 <= 0xDFFF {
			return utf16.DecodeRune(r1, r2), nil
		}
		*p = save
	}
	return 0, p.errorf("lone UTF-16 surrogate escape \\u%04x: models must hold valid Unicode", r1)
}

// hex4 reads `\uXXXX` at the current offset.
func (p *parser) hex4() (rune, error) {
	if p.off+6 > len(p.data) {
		return 0, p.errorf("truncated \\u escape")
	}
	n, err := strconv.ParseUint(string(p.data[p.off+2:p.off+6]), 16, 32)
	if err != nil {
		return 0, p.errorf("invalid \\u escape %q", p.data[p.off:p.off+6])
	}
	p.advance(6)
	return rune(n), nil
}
