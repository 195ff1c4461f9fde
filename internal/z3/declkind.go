package z3

/*
#include <z3.h>
*/
import "C"

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

func declKindOf(k C.Z3_decl_kind) DeclKind {
	if d, ok := basicDeclKind(k); ok {
		return d
	}
	switch k {
	case C.Z3_OP_UNINTERPRETED:
		return DeclUninterpreted
	case C.Z3_OP_ANUM:
		return DeclNumeral
	case C.Z3_OP_AGNUM:
		return DeclAlgebraicNumeral
	case C.Z3_OP_LE:
		return DeclLe
	case C.Z3_OP_GE:
		return DeclGe
	case C.Z3_OP_LT:
		return DeclLt
	case C.Z3_OP_GT:
		return DeclGt
	case C.Z3_OP_ADD:
		return DeclAdd
	case C.Z3_OP_SUB:
		return DeclSub
	case C.Z3_OP_UMINUS:
		return DeclNeg
	case C.Z3_OP_MUL:
		return DeclMul
	case C.Z3_OP_DIV:
		return DeclRealDiv
	case C.Z3_OP_IDIV:
		return DeclIntDiv
	case C.Z3_OP_REM:
		return DeclRem
	case C.Z3_OP_MOD:
		return DeclMod
	case C.Z3_OP_TO_REAL:
		return DeclToReal
	case C.Z3_OP_TO_INT:
		return DeclToInt
	case C.Z3_OP_IS_INT:
		return DeclIsInt
	case C.Z3_OP_POWER:
		return DeclPower
	case C.Z3_OP_PB_AT_MOST:
		return DeclAtMost
	case C.Z3_OP_PB_AT_LEAST:
		return DeclAtLeast
	case C.Z3_OP_PB_LE:
		return DeclPBLe
	case C.Z3_OP_PB_GE:
		return DeclPBGe
	case C.Z3_OP_PB_EQ:
		return DeclPBEq
	}
	return DeclOther
}

func basicDeclKind(k C.Z3_decl_kind) (DeclKind, bool) {
	switch k {
	case C.Z3_OP_TRUE:
		return DeclTrue, true
	case C.Z3_OP_FALSE:
		return DeclFalse, true
	case C.Z3_OP_EQ, C.Z3_OP_IFF:
		return DeclEq, true
	case C.Z3_OP_DISTINCT:
		return DeclDistinct, true
	case C.Z3_OP_ITE:
		return DeclIte, true
	case C.Z3_OP_AND:
		return DeclAnd, true
	case C.Z3_OP_OR:
		return DeclOr, true
	case C.Z3_OP_XOR:
		return DeclXor, true
	case C.Z3_OP_NOT:
		return DeclNot, true
	case C.Z3_OP_IMPLIES:
		return DeclImplies, true
	}
	return DeclOther, false
}
