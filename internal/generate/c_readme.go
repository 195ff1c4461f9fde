package generate

import (
	"fmt"
	"path"
	"strings"
)

// readmeC writes the C target's README.md: how to embed it, with a C
// program that compiles against the files as generated, the model's
// names, the no-heap contract and where integers may overflow.
func (g *cGen) readmeC(opts Options) []byte {
	var b strings.Builder
	n, up := opts.Name, strings.ToUpper(opts.Name)
	fmt.Fprintf(&b, "# %s.h, %s.c\n\n", n, n)
	readmeProvenance(&b, "c", path.Base(g.m.File))
	b.WriteString("\n\n")
	b.WriteString("## Embedding\n\n")
	fmt.Fprintf(&b, "C99 and the standard library only; C++ can include `%s.h` (it has `extern \"C\"`\n", n)
	fmt.Fprintf(&b, "guards). Compile `%s.c` with your program and link the math library:\n\n", n)
	fmt.Fprintf(&b, "    cc -std=c99 -Wall -Wextra -pedantic -c %s.c\n    cc -o app app.c %s.o -lm\n\n", n, n)
	b.WriteString("Do not compile it with `-ffast-math` or `-ffp-contract=fast`: the floats are bit for\n")
	b.WriteString("bit the runtime's only when every operation is rounded as IEEE 754 says.\n\n")
	b.WriteString("```c\n" + g.snippetC(n, up) + "```\n\n")
	b.WriteString("## No heap\n\n")
	fmt.Fprintf(&b, "The machine is the caller's `%s_machine` struct (static, on the stack or inside your\n", n)
	b.WriteString("own structs); the code calls no `malloc`, `calloc`, `realloc` or `free` (stateproof's\n")
	b.WriteString("tests check the object file with `nm`). The struct holds the search's workspace:\n")
	fmt.Fprintf(&b, "its size is fixed by the model, `sizeof(%s_machine)`. A cycle records at most\n", n)
	fmt.Fprintf(&b, "`%s_MAX_ACTIONS` actions and `%s_MAX_CALLS` abstract calls (define them before\n", up, up)
	b.WriteString("including the header to change them); a cycle that needs more fails with class\n")
	b.WriteString("`limit` and changes nothing.\n\n")
	b.WriteString("## API\n\n")
	fmt.Fprintf(&b, "- `%s_init(&m)` is a cold start; `%s_start(&m, state, vars, given)` a hot start at a\n", n, n)
	b.WriteString("  state path with every variable (or, with state 0, a cold start overriding the\n")
	b.WriteString("  variables where `given[i]`). Both return 0, or -1 with `m.error`.\n")
	fmt.Fprintf(&b, "- `%s_cycle(&m, events, n)` runs one cycle (event paths: full, `/a.b` from the root,\n", n)
	b.WriteString("  `.x` relative to the current state); `m.trace` is what it did.\n")
	fmt.Fprintf(&b, "- `%s_state(&m)` is the current state's path (the root before the first cycle of a\n", n)
	fmt.Fprintf(&b, "  cold start, 0 once ended), `%s_ended(&m)`, `%s_var(&m, %s_VAR_…)` a variable.\n", n, n, up)
	fmt.Fprintf(&b, "- `m.hooks[%s_HOOK_…]` implements an abstract action (0: no-op); `m.user` is passed\n", up)
	fmt.Fprintf(&b, "  to it with a read-only `%s_call`. Hooks run after the cycle's search, in call\n", n)
	b.WriteString("  order, before it commits; a hook returning non-zero fails the cycle (`handler`).\n")
	b.WriteString("- A failure has class `init`, `event`, `expression`, `writeback`, `handler`, `limit`\n")
	b.WriteString("  or `target`, a message and the model position. **A cycle that fails leaves the\n")
	b.WriteString("  machine unchanged.** A machine is not safe for concurrent use.\n\n")
	g.readmeCModel(&b, up)
	g.readmeCInts(&b)
	b.WriteString("\n## Floats\n\n")
	b.WriteString("Floats are bit for bit the runtime's: the code uses only correctly rounded or exact\n")
	b.WriteString("operations, and computes `**` as the runtime does for an integer exponent. A `**` with\n")
	b.WriteString("a non-integer exponent (other than ±0.5) needs `exp` and `log`, which C's library does\n")
	b.WriteString("not round as the runtime does: that cycle fails with class `target`, unchanged.\n\n")
	if opts.Driver {
		b.WriteString("## The driver\n\n")
		b.WriteString("`./run --steps STEPS.json [--init-state S --init-vars JSON]` compiles `driver.c` with\n")
		fmt.Fprintf(&b, "`$CC` (default `cc`) into `.bin/%s` when it is missing or older than a source file,\n", n)
		b.WriteString("and runs it. It prints the `stateproof/simulate/v1` document that\n")
		fmt.Fprintf(&b, "`stateproof simulate %s --steps STEPS.json --json` prints for the same run, byte for\n", opts.ModelName)
		b.WriteString("byte, and exits as `simulate` does. stateproof's tests use it to check this code\n")
		b.WriteString("against the runtime. The driver, unlike the machine, uses the heap.\n")
	}
	return []byte(b.String())
}

// snippetC is a complete C program using the machine.
func (g *cGen) snippetC(n, up string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#include <stdio.h>\n#include \"%s.h\"\n\n", n)
	abs := g.abstracts()
	if len(abs) > 0 {
		fmt.Fprintf(&b, "static int on_call(const %s_call *c, void *user)\n{\n\t(void)user;\n\tprintf(\"%%s %%s in %%s\\n\", c->action, c->stage, c->state);\n\treturn 0; /* non-zero fails the cycle */\n}\n\n", n)
	}
	fmt.Fprintf(&b, "static %s_machine m; /* large: static or inside your own state */\n\nint main(void)\n{\n", n)
	events := "0"
	if len(g.events) > 0 {
		events = cQuote(g.events[0])
	}
	fmt.Fprintf(&b, "\tconst char *events[] = {%s};\n\tint i;\n", events)
	for _, a := range abs {
		fmt.Fprintf(&b, "\tm.hooks[%s_%s] = on_call;\n", up, g.macro["hook "+a.Path])
	}
	fmt.Fprintf(&b, "\tif (%s_init(&m) != 0) { /* a cold start */\n\t\tfprintf(stderr, \"%%s\\n\", m.error.message);\n\t\treturn 1;\n\t}\n", n)
	fmt.Fprintf(&b, "\tfor (i = 0; i < 3; i++) {\n\t\tif (%s_cycle(&m, events, i == 1 && events[0]) != 0) {\n", n)
	b.WriteString("\t\t\t/* The failed cycle changed nothing. */\n\t\t\tfprintf(stderr, \"cycle failed (%s): %s\\n\", m.error.cls, m.error.message);\n\t\t\tbreak;\n\t\t}\n")
	fmt.Fprintf(&b, "\t\tprintf(\"%%s\\n\", %s_ended(&m) ? \"(ended)\" : %s_state(&m));\n\t}\n", n, n)
	if len(g.m.Vars) > 0 {
		v := g.m.Vars[0]
		fmt.Fprintf(&b, "\t{\n\t\tchar buf[64];\n\t\t%s_format(buf, sizeof buf, %s_var(&m, %s_%s));\n\t\tprintf(\"%s = %%s\\n\", buf);\n\t}\n", n, n, up, g.macro["var "+v.Name], strings.ReplaceAll(v.Name, "%", "%%"))
	}
	b.WriteString("\treturn 0;\n}\n")
	return b.String()
}

// readmeCModel lists the model's states, events, variables and hooks
// with their C names and model lines.
func (g *cGen) readmeCModel(b *strings.Builder, up string) {
	b.WriteString("## The model\n\n| state | macro | line |\n|---|---|---|\n")
	for _, s := range g.states {
		fmt.Fprintf(b, "| `%s` | `%s_%s` | %s |\n", s.Path, up, g.macro["state "+s.Path], where(s.Pos))
	}
	b.WriteString("\n| event | macro |\n|---|---|\n")
	for _, e := range g.events {
		fmt.Fprintf(b, "| `%s` | `%s_%s` |\n", e, up, g.macro["event "+e])
	}
	b.WriteString("\n| variable | type | macro | line |\n|---|---|---|---|\n")
	for _, v := range g.m.Vars {
		fmt.Fprintf(b, "| `%s` | %s | `%s_%s` | %s |\n", v.Name, v.Type, up, g.macro["var "+v.Name], where(v.Pos))
	}
	b.WriteString("\n| abstract action | hook | line |\n|---|---|---|\n")
	for _, a := range g.abstracts() {
		fmt.Fprintf(b, "| `%s` | `%s_%s` | %s |\n", a.Path, up, g.macro["hook "+a.Path], where(a.Pos))
	}
	b.WriteString("\n")
}

// readmeCInts says where integers may leave 64 bits.
func (g *cGen) readmeCInts(b *strings.Builder) {
	ints := g.intVarNames()
	b.WriteString("## Integers\n\n")
	b.WriteString("The runtime's integers are mathematical integers; C has none. This code computes\n")
	b.WriteString("with `int64_t` and checks every operation: a result outside 64 bits (in a guard, an\n")
	b.WriteString("effect, a temporary or a variable) fails the cycle with class `target` and the\n")
	b.WriteString("message \"" + cOverflow + "\", and the machine is\n")
	b.WriteString("unchanged. Nothing wraps. The generator proves no bounds, so any integer operation\n")
	if len(ints) == 0 {
		b.WriteString("may overflow; the model has no integer variables.\n")
		return
	}
	fmt.Fprintf(b, "may overflow, and so may the integer variables %s.\n", strings.Join(ints, ", "))
}
