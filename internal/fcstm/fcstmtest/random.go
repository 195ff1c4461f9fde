package fcstmtest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// RandomModel writes a random FCSTM model (the same one for a seed): a root with leaves, a pseudo
// state and a composite, transitions with events, guards, combos and
// effects that may divide (and so fail their int writeback), an exit
// through [*] that ends the machine, and during chains with if blocks.
func RandomModel(seed uint64) string {
	return randomModel(seed, false)
}

// RandomRaisingModel is RandomModel with a float variable f and more
// statements that can raise: a division by a variable that reaches zero,
// sqrt of a value that goes negative, and writebacks of non-integral
// values to an int.
func RandomRaisingModel(seed uint64) string {
	return randomModel(seed, true)
}

// raisingStmts are the extra statements of RandomRaisingModel.
var raisingStmts = []string{"f = sqrt(f - 1.0);", "x = x / (y - 1);", "f = f - 0.75; y = y + 1;",
	"x = sqrt(x + y - 2);", "if [f < 0.5] { f = f + 2.0; } else { y = 3 / (x - 1); }"}

func randomModel(seed uint64, raising bool) string {
	r := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	b.WriteString("def int x = 0;\ndef int y = 1;\n")
	if raising {
		b.WriteString("def float f = 2.5;\n")
	}
	b.WriteString("state Root {\n")
	events := []string{"E0", "E1", "E2"}
	ev := func() string { return events[r.IntN(len(events))] }
	guard := func() string {
		return [...]string{"x > 2", "x % 2 == 0", "y != 0 && x / y >= 1", "x + y < 4", "x == y"}[r.IntN(5)]
	}
	stmts := []string{"x = x + 1;", "x = x * 2;", "y = y + x;", "x = x / 2;", "y = 0;", "x = (x + 1) % 3;",
		"if [x > 1] { x = x - 2; } else { y = y + 1; }", "t = x + y; x = t;", "y = 7 / (x + 1) * (x + 1);"}
	if raising {
		stmts = append(stmts, raisingStmts...)
	}
	stmt := func() string { return stmts[r.IntN(len(stmts))] }
	leaves := []string{"A", "B", "C"}
	for _, l := range leaves {
		fmt.Fprintf(&b, "    state %s", l)
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, " { during { %s } }\n", stmt())
		} else {
			b.WriteString(";\n")
		}
	}
	b.WriteString("    pseudo state P;\n")
	b.WriteString("    state K {\n        state K1;\n        state K2")
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, " { enter { %s } }\n", stmt())
	} else {
		b.WriteString(";\n")
	}
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "        [*] -> K1 : if [%s];\n        [*] -> K2;\n", guard())
	} else {
		b.WriteString("        [*] -> K1;\n")
	}
	fmt.Fprintf(&b, "        K1 -> K2 :: %s;\n        K2 -> [*] :: %s;\n    }\n", ev(), ev())
	if r.IntN(2) == 0 {
		b.WriteString("    >> during before { y = y + 1; }\n")
	}
	targets := []string{"A", "B", "C", "K", "P"}
	fmt.Fprintf(&b, "    [*] -> %s;\n", []string{"A", "K", "P"}[r.IntN(3)])
	fmt.Fprintf(&b, "    P -> %s : if [%s];\n", leaves[r.IntN(3)], guard())
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "    P -> %s;\n", leaves[r.IntN(3)])
	}
	fmt.Fprintf(&b, "    K -> %s", leaves[r.IntN(3)])
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, " : %s", ev())
	}
	b.WriteString(";\n")
	for range 3 + r.IntN(4) {
		from, to := leaves[r.IntN(3)], targets[r.IntN(len(targets))]
		fmt.Fprintf(&b, "    %s -> %s", from, to)
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&b, " :: %s", ev())
		case 1:
			fmt.Fprintf(&b, " : if [%s]", guard())
		case 2:
			fmt.Fprintf(&b, " :: %s + [%s]", ev(), guard())
		}
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, " effect { %s }", stmt())
		}
		b.WriteString(";\n")
	}
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "    %s -> [*] :: %s;\n", leaves[r.IntN(3)], ev())
	}
	b.WriteString("}\n")
	return b.String()
}
