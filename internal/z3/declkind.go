package z3

// DeclKind is the kind of the declaration a term applies: an operator of
// the Boolean, arithmetic or pseudo-Boolean theory, a numeral, or an
// uninterpreted symbol (constant, function or predicate).
type DeclKind int

// Declaration kinds; everything the binding does not name is DeclOther.
const (
	DeclOther DeclKind = iota
	DeclUninterpreted
	DeclTrue
	DeclFalse
	DeclEq // equality, including Boolean equality (iff)
	DeclDistinct
	DeclIte
	DeclAnd
	DeclOr
	DeclXor
	DeclNot
	DeclImplies
	DeclNumeral          // rational numeral
	DeclAlgebraicNumeral // irrational algebraic number (model values)
	DeclLe
	DeclGe
	DeclLt
	DeclGt
	DeclAdd
	DeclSub
	DeclNeg
	DeclMul
	DeclRealDiv
	DeclIntDiv
	DeclRem
	DeclMod
	DeclToReal
	DeclToInt
	DeclIsInt
	DeclPower
	DeclAtMost
	DeclAtLeast
	DeclPBLe
	DeclPBGe
	DeclPBEq
)

func (k DeclKind) String() string {
	switch k {
	case DeclUninterpreted:
		return "uninterpreted"
	case DeclTrue:
		return "true"
	case DeclFalse:
		return "false"
	case DeclEq:
		return "="
	case DeclDistinct:
		return "distinct"
	case DeclIte:
		return "ite"
	case DeclAnd:
		return "and"
	case DeclOr:
		return "or"
	case DeclXor:
		return "xor"
	case DeclNot:
		return "not"
	case DeclImplies:
		return "=>"
	case DeclNumeral:
		return "numeral"
	case DeclAlgebraicNumeral:
		return "algebraic-numeral"
	case DeclLe:
		return "<="
	case DeclGe:
		return ">="
	case DeclLt:
		return "<"
	case DeclGt:
		return ">"
	case DeclAdd:
		return "+"
	case DeclSub:
		return "-"
	case DeclNeg:
		return "unary-"
	case DeclMul:
		return "*"
	case DeclRealDiv:
		return "/"
	case DeclIntDiv:
		return "div"
	case DeclRem:
		return "rem"
	case DeclMod:
		return "mod"
	case DeclToReal:
		return "to_real"
	case DeclToInt:
		return "to_int"
	case DeclIsInt:
		return "is_int"
	case DeclPower:
		return "^"
	case DeclAtMost:
		return "at-most"
	case DeclAtLeast:
		return "at-least"
	case DeclPBLe:
		return "pble"
	case DeclPBGe:
		return "pbge"
	case DeclPBEq:
		return "pbeq"
	}
	return "other"
}

func declKindOf(k z3_decl_kind) DeclKind {
	if d, ok := basicDeclKind(k); ok {
		return d
	}
	switch k {
	case z3_OP_UNINTERPRETED:
		return DeclUninterpreted
	case z3_OP_ANUM:
		return DeclNumeral
	case z3_OP_AGNUM:
		return DeclAlgebraicNumeral
	case z3_OP_LE:
		return DeclLe
	case z3_OP_GE:
		return DeclGe
	case z3_OP_LT:
		return DeclLt
	case z3_OP_GT:
		return DeclGt
	case z3_OP_ADD:
		return DeclAdd
	case z3_OP_SUB:
		return DeclSub
	case z3_OP_UMINUS:
		return DeclNeg
	case z3_OP_MUL:
		return DeclMul
	case z3_OP_DIV:
		return DeclRealDiv
	case z3_OP_IDIV:
		return DeclIntDiv
	case z3_OP_REM:
		return DeclRem
	case z3_OP_MOD:
		return DeclMod
	case z3_OP_TO_REAL:
		return DeclToReal
	case z3_OP_TO_INT:
		return DeclToInt
	case z3_OP_IS_INT:
		return DeclIsInt
	case z3_OP_POWER:
		return DeclPower
	case z3_OP_PB_AT_MOST:
		return DeclAtMost
	case z3_OP_PB_AT_LEAST:
		return DeclAtLeast
	case z3_OP_PB_LE:
		return DeclPBLe
	case z3_OP_PB_GE:
		return DeclPBGe
	case z3_OP_PB_EQ:
		return DeclPBEq
	}
	return DeclOther
}

func basicDeclKind(k z3_decl_kind) (DeclKind, bool) {
	switch k {
	case z3_OP_TRUE:
		return DeclTrue, true
	case z3_OP_FALSE:
		return DeclFalse, true
	case z3_OP_EQ, z3_OP_IFF:
		return DeclEq, true
	case z3_OP_DISTINCT:
		return DeclDistinct, true
	case z3_OP_ITE:
		return DeclIte, true
	case z3_OP_AND:
		return DeclAnd, true
	case z3_OP_OR:
		return DeclOr, true
	case z3_OP_XOR:
		return DeclXor, true
	case z3_OP_NOT:
		return DeclNot, true
	case z3_OP_IMPLIES:
		return DeclImplies, true
	}
	return DeclOther, false
}
