package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Format renders e as canonical text: symbol operators (&&, ||, !, =>;
// xor and iff have no symbol), single spaces around binary operators,
// double-quoted strings, lowercase true/false, decimal integers, and the
// fewest parentheses the grammar needs, plus a few that it does not but a
// reader does:
//
//   - a negated binary expression: !(x > 0), not !x > 0;
//   - a signed base of "**": (-2) ** 2 (docs/fcstm.md);
//   - a sign applied to a sign: -(-x);
//   - a comparison compared with ==, != or iff: (x > 0) == (y > 0);
//   - a conditional nested in the "then" branch or in a range end.
//
// Parsing the result gives a tree Equal to e, for every tree the parser
// can produce (round trip). An identifier that is not a plain name (see
// IsPlainName) prints as var("…"), so that no variable name built by code
// reads back as a keyword, a constant or a different expression. Trees built by code print the same way; a
// negative literal prints as a sign and a number, and so reads back as a
// Unary.
func Format(e Expr) string {
	var b strings.Builder
	printer{&b}.expr(e, 0)
	return b.String()
}

type printer struct{ b *strings.Builder }

// precOf is the precedence of the construct e prints as.
func precOf(e Expr) int {
	switch n := e.(type) {
	case *Conditional:
		return precCond
	case *Binary:
		return opPrec(n.Op)
	case *Unary:
		if n.Op == Not {
			return precNot
		}
		return precUnary
	case *IntLit:
		if n.Value < 0 || n.Big != nil && n.Big.Sign() < 0 {
			return precUnary
		}
	case *FloatLit:
		if math.Signbit(n.Value) {
			return precUnary
		}
	case *Range:
		return 0
	}
	return precPrimary
}

// isSigned reports whether e prints with a leading sign.
func isSigned(e Expr) bool {
	if u, ok := e.(*Unary); ok {
		return u.Op != Not
	}
	return precOf(e) == precUnary
}

func isComparison(e Expr) bool {
	b, ok := e.(*Binary)
	return ok && (b.Op.IsComparison() || b.Op == Iff)
}

// expr prints e, in parentheses when it binds looser than min.
func (p printer) expr(e Expr, min int) {
	if e == nil {
		p.b.WriteString("<nil>")
		return
	}
	if precOf(e) < min {
		p.b.WriteByte('(')
		p.expr(e, 0)
		p.b.WriteByte(')')
		return
	}
	switch n := e.(type) {
	case *Binary:
		p.binary(n)
	case *Unary:
		p.unary(n)
	case *Conditional:
		p.b.WriteByte('(')
		p.expr(n.Cond, 0)
		p.b.WriteString(") ? ")
		p.expr(n.Then, precImplies)
		p.b.WriteString(" : ")
		p.expr(n.Else, precCond)
	case *FuncCall:
		p.b.WriteString(n.Fn.String())
		p.b.WriteByte('(')
		p.expr(n.Arg, 0)
		p.b.WriteByte(')')
	case *AtomCall:
		p.atom(n)
	case *Range:
		if n.Lo != nil {
			p.paren(n.Lo, precImplies, startsWithWhere(n.Lo))
		}
		p.b.WriteString("..")
		if n.Hi != nil {
			p.expr(n.Hi, precImplies)
		}
	default:
		p.b.WriteString(leafText(e))
	}
}

// paren prints e at min, in parentheses anyway when force is set.
func (p printer) paren(e Expr, min int, force bool) {
	if force {
		min = precPrimary + 1
	}
	p.expr(e, min)
}

func (p printer) binary(n *Binary) {
	prec := opPrec(n.Op)
	lmin, rmin := prec, prec+1
	switch prec {
	case precPow, precImplies: // right-associative
		lmin, rmin = prec+1, prec
	case precRel: // non-associative
		lmin = prec + 1
	}
	clarify := prec == precEq
	p.paren(n.X, lmin, clarify && isComparison(n.X) || n.Op == Pow && isSigned(n.X))
	p.b.WriteByte(' ')
	p.b.WriteString(n.Op.String())
	p.b.WriteByte(' ')
	p.paren(n.Y, rmin, clarify && isComparison(n.Y))
}

func (p printer) unary(n *Unary) {
	p.b.WriteString(n.Op.String())
	if n.Op == Not {
		_, bin := n.X.(*Binary)
		p.paren(n.X, precNot, bin)
		return
	}
	p.paren(n.X, precUnary, isSigned(n.X))
}

func (p printer) atom(n *AtomCall) {
	p.b.WriteString(n.Name)
	p.b.WriteByte('(')
	for i, a := range n.Args {
		if i > 0 {
			p.b.WriteString(", ")
		}
		switch a.Kind {
		case ArgNamed:
			p.b.WriteString(a.Name)
			p.b.WriteByte('=')
		case ArgWhere:
			p.b.WriteString("where ")
		case ArgPositional:
			// A positional value that starts with the word "where" would
			// read back as a where clause.
			_, isRange := a.Value.(*Range)
			p.paren(a.Value, 0, !isRange && startsWithWhere(a.Value))
			continue
		}
		p.expr(a.Value, 0)
	}
	p.b.WriteByte(')')
}

// startsWithWhere reports whether e prints starting with the word
// "where" (the variable or an atom of that name), which at the start of an
// atom argument would read back as a where clause.
func startsWithWhere(e Expr) bool {
	for {
		switch n := e.(type) {
		case *Binary:
			e = n.X
		case *AtomCall:
			return n.Name == "where"
		case *Ident:
			return n.Name == "where"
		default:
			return false
		}
	}
}

// leafText renders a node without children.
func leafText(e Expr) string {
	switch n := e.(type) {
	case *IntLit:
		if n.Big != nil {
			return n.Big.String()
		}
		return strconv.FormatInt(n.Value, 10)
	case *FloatLit:
		return formatFloat(n.Value)
	case *BoolLit:
		return strconv.FormatBool(n.Value)
	case *StringLit:
		return quote(n.Value)
	case *Const:
		return n.Name
	case *Ident:
		if !IsPlainName(n.Name) {
			// A name the scanner would not read back as this identifier
			// (a keyword, a constant, "x.y", "9x", "réessai") is written
			// as the atom var("…"), which front ends read as the variable.
			return "var(" + quote(n.Name) + ")"
		}
		return n.Name
	case *Wildcard:
		return "*"
	}
	return fmt.Sprintf("<%T>", e)
}

// formatFloat renders f so that the scanner reads it back as the same
// float: the shortest decimal form, always with a "." or an exponent, in
// exponent form when |f| < 1e-4 or |f| >= 1e16 (like Python's repr).
func formatFloat(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Sprint(f) // not representable in the language
	}
	if a := math.Abs(f); a != 0 && (a < 1e-4 || a >= 1e16) {
		return strconv.FormatFloat(f, 'e', -1, 64)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// quote renders s as a double-quoted string literal that the scanner
// decodes back to s (bytes that are not UTF-8 as \xHH).
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case !unicode.IsPrint(r):
			if r <= 0xFFFF {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		default:
			b.WriteRune(r)
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// IsPlainName reports whether name reads back as the identifier name: an
// ASCII letter or "_" followed by letters, digits or "_", and not reserved
// (IsReserved).
func IsPlainName(name string) bool {
	if name == "" || IsReserved(name) {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isLetter(c) && (i == 0 || !isDigit(c)) {
			return false
		}
	}
	return true
}
