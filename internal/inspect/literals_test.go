package inspect

import (
	"slices"
	"testing"
)

// TestLiterals: the sign belongs to the literal; a negative constant
// shift count is reported as well as one of 64; an assignment of a float
// literal to an int variable narrows as an initialiser does.
func TestLiterals(t *testing.T) {
	src := `def int low = -9223372036854775809;
def int ok = -9223372036854775808;
def int n = 0;
state Root {
    state A { enter { n = 2.0; ok = 1; } }
    state B;
    [*] -> A;
    A -> B : if [(n >> (1 - 2)) > 0];
    B -> A : if [(n << 62) > low];
}
`
	res := Source("m.fcstm", []byte(src), Options{})
	var got []string
	for _, d := range res.Diagnostics {
		switch d.Code {
		case "W_NUMERIC_LITERAL_OUT_OF_TARGET_RANGE":
			got = append(got, d.Code+" "+d.Refs["literal_text"].(string))
		case "W_NUMERIC_SHIFT_COUNT_OUT_OF_TARGET_RANGE":
			got = append(got, d.Code+" "+d.Refs["shift_count_text"].(string))
		case "W_LITERAL_TYPE_NARROWING":
			got = append(got, d.Code+" "+d.Refs["var_name"].(string)+"="+d.Refs["source_expr"].(string))
		}
	}
	want := []string{
		"W_NUMERIC_LITERAL_OUT_OF_TARGET_RANGE -9223372036854775809",
		"W_LITERAL_TYPE_NARROWING n=2.0",
		"W_NUMERIC_SHIFT_COUNT_OUT_OF_TARGET_RANGE -1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
