package z3

// ParseSMTLIB2String parses SMT-LIB2 text and returns its asserted formulas
// in order (as parsed, not simplified). The text declares its own symbols;
// commands such as check-sat are ignored. Each call starts from an empty
// set of declarations, but a constant or function declared with the same
// name and sort in two calls (or built with Const) is the same term.
// Malformed input, undeclared symbols and ill-sorted terms are errors of
// kind ErrorParse. Z3 skips a command it does not know (it writes a note
// to the process's stderr) rather than failing.
func (c *Context) ParseSMTLIB2String(src string) ([]*Term, error) {
	const op = "ParseSMTLIB2String"
	if err := c.begin(op); err != nil {
		return nil, err
	}
	cs := src
	v := z3_parse_smtlib2_string(c.z, cs, 0, nil, nil, 0, nil, nil)
	return c.vectorTerms(op, v)
}
