package format

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/lineend"
)

// blockKind says what a pair of braces encloses, which decides its layout.
type blockKind uint8

const (
	noBlock    blockKind = iota
	stateBody            // state S { items }: one item per line
	importBody           // import "f" as A { mappings }: one mapping per line
	opsBlock             // enter/during/exit/effect/if/else { statements }
	setBraces            // def {a, b} in an import block, havoc { a, b } in a query: inline
)

// elem is one token or comment of the source, in order.
type elem struct {
	kind    expr.Kind // COMMENT or DOC for comments
	text    string    // as written (a line comment without trailing blanks)
	line    int32     // line of the first byte
	nl      int32     // newlines between the previous element and this one
	raw     bool      // an import selector or target template, lexed by hand
	block   blockKind // braces: what they enclose
	match   int32     // braces: index of the other brace
	inline  bool      // opening and closing brace of a one-line block
	empty   bool      // opening and closing brace of a block with nothing inside
	drop    bool      // a lone ";", which means nothing
	prefix  bool      // a sign or the "/" of an absolute path (no space after)
	clause  bool      // a query clause's ":" (no space before)
	comment bool
}

// is reports whether e is the token of kind k.
func (e *elem) is(k expr.Kind) bool { return !e.comment && !e.raw && e.kind == k }

// isWord reports whether e is the identifier w.
func (e *elem) isWord(w string) bool { return e.is(expr.IDENT) && e.text == w }

// lexer turns source text into elements, tracking just enough structure to
// lex FCSTM's import mappings (which are not expression tokens) and to
// classify braces.
type lexer struct {
	lang      *language
	src       string
	els       []elem
	stack     []int // indices of the open braces
	stmtFirst int   // index of the current statement's first token, -1 between statements
	prevTok   int   // index of the previous token (not comment), -1 at the start
	rawNext   func(byte) bool
	ternaries int // "?" of the statement still waiting for their ":"
}

// lex returns the elements of src, which must already have parsed.
func lex(lang *language, src string) ([]elem, error) {
	if lang.name == "rsc" {
		return lexRSC(lang, src)
	}
	lx := &lexer{lang: lang, src: src, stmtFirst: -1, prevTok: -1, els: make([]elem, 0, len(src)/4+1)}
	mode := lang.mode | expr.ScanComments
	// After a hand-lexed word the scanner restarts on the rest of the text
	// (base is where that starts): offsets are base-relative, and lines
	// are counted here, so that a restart costs nothing however far into
	// a large file it is.
	sc, base := expr.NewScanner(src, mode), 0
	prevEnd, line := 0, 1
	for {
		t := sc.Scan()
		if t.Kind == expr.EOF {
			break
		}
		start, end := base+t.Span.Start.Offset, base+t.Span.End.Offset
		nl := lineend.Count(src[prevEnd:start])
		line += nl
		e := elem{kind: t.Kind, text: t.Text, line: int32(line), nl: int32(nl)}
		switch {
		case t.Kind == expr.COMMENT || t.Kind == expr.DOC:
			e.comment = true
			if !strings.HasPrefix(t.Text, "/*") {
				e.text = strings.TrimRight(t.Text, " \t\r")
			}
		case lx.rawNext != nil:
			if w := rawWord(src, start, lx.rawNext); w != "" {
				e.raw, e.kind, e.text = true, expr.IDENT, w
				end = start + len(w)
				sc, base = expr.NewScanner(src[end:], mode), end
			}
			lx.rawNext = nil
		case t.Kind == expr.ILLEGAL:
			return nil, fmt.Errorf("%d: %s", line, t.Err)
		}
		line += lineend.Count(src[start:end])
		prevEnd = end
		lx.els = append(lx.els, e)
		if !e.comment {
			lx.token(len(lx.els) - 1)
		}
	}
	if len(lx.stack) > 0 {
		return nil, fmt.Errorf("%d: unclosed \"{\"", lx.els[lx.stack[0]].line)
	}
	lx.finishBlocks()
	return lx.els, nil
}

// token records the structure a token opens or closes.
func (lx *lexer) token(i int) {
	e := &lx.els[i]
	if lx.stmtFirst < 0 {
		lx.stmtFirst = i
		lx.ternaries = 0
	}
	if lx.prevTok >= 0 && (e.is(expr.SUB) || e.is(expr.ADD) || e.is(expr.QUO)) {
		e.prefix = !lx.lang.operand(&lx.els[lx.prevTok])
	} else if lx.prevTok < 0 {
		e.prefix = e.is(expr.SUB) || e.is(expr.ADD) || e.is(expr.QUO)
	}
	inImport := len(lx.stack) > 0 && lx.els[lx.stack[len(lx.stack)-1]].block == importBody
	defMap := inImport && lx.els[lx.stmtFirst].isWord("def")
	switch {
	case e.is(expr.QUESTION):
		lx.ternaries++
	case e.is(expr.COLON):
		if lx.ternaries > 0 {
			lx.ternaries--
		} else {
			e.clause = lx.lang.tightColon
		}
	case e.is(expr.LBRACE):
		e.block = lx.classify(defMap)
		lx.stack = append(lx.stack, i)
		if e.block != setBraces {
			lx.stmtFirst = -1 // the block's first statement is next
		}
	case e.is(expr.RBRACE):
		if len(lx.stack) == 0 {
			return // cannot happen: the source parsed
		}
		j := lx.stack[len(lx.stack)-1]
		lx.stack = lx.stack[:len(lx.stack)-1]
		e.block, e.match, lx.els[j].match = lx.els[j].block, int32(j), int32(i)
		if e.block != setBraces {
			lx.stmtFirst = -1
		}
	case e.is(expr.SEMI):
		e.drop = lx.stmtFirst == i
		lx.stmtFirst = -1
	case defMap && i == lx.stmtFirst:
		lx.rawNext = isSelectorByte // def SELECTOR -> TARGET; ({a, b} is lexed as tokens)
	case defMap && e.is(expr.ARROW):
		lx.rawNext = isTemplateByte
	}
	if !e.drop {
		lx.prevTok = i
	}
}

// classify says what the brace being opened encloses.
func (lx *lexer) classify(defMap bool) blockKind {
	if !lx.lang.blocks || defMap {
		return setBraces
	}
	if n := len(lx.stack); n > 0 && lx.els[lx.stack[n-1]].block == opsBlock {
		return opsBlock // if / else inside operations
	}
	switch lx.els[lx.stmtFirst].text {
	case "state", "pseudo":
		return stateBody
	case "import":
		return importBody
	}
	return opsBlock // enter, during, exit, >> during, a transition's effect
}

// finishBlocks marks empty blocks, and the operation blocks kept on one
// line: written on one line, without comments, holding at most one
// assignment (so that "one statement per line" holds).
func (lx *lexer) finishBlocks() {
	for i := range lx.els {
		e := &lx.els[i]
		if !e.is(expr.LBRACE) || e.block == setBraces {
			continue
		}
		j := int(e.match)
		empty, inline := true, e.block == opsBlock && lx.els[j].line == e.line
		semis := 0
		for k := i + 1; k < j && (empty || inline); k++ {
			in := &lx.els[k]
			switch {
			case in.comment:
				empty, inline = false, false
			case in.drop:
			case in.is(expr.LBRACE):
				empty, inline = false, false
			default:
				empty = false
				if in.is(expr.SEMI) {
					semis++
				}
			}
		}
		inline = inline && semis <= 1
		e.empty, lx.els[j].empty = empty, empty
		e.inline, lx.els[j].inline = inline && !empty, inline && !empty
	}
}

// rawWord returns the run of bytes at off accepted by ok (the FCSTM
// parser lexes import selectors and templates the same way).
func rawWord(src string, off int, ok func(byte) bool) string {
	end := off
	for end < len(src) && ok(src[end]) {
		end++
	}
	return src[off:end]
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || (c|0x20) >= 'a' && (c|0x20) <= 'z'
}
func isSelectorByte(c byte) bool { return isWordByte(c) || c == '*' }
func isTemplateByte(c byte) bool {
	return isWordByte(c) || c == '*' || c == '$' || c == '{' || c == '}'
}
