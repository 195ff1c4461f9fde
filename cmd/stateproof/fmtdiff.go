package main

import (
	"fmt"
	"strings"
)

// maxDiffCells bounds the line-matching table of unifiedDiff: past it the
// changed middle of the file is shown as one replaced block (still a
// correct diff, only not the smallest).
const maxDiffCells = 4 << 20

// diffContext is how many unchanged lines surround a change, as in diff -u.
const diffContext = 3

// diffOp is one line of an edit script: ' ' kept, '-' deleted, '+' added.
type diffOp struct {
	kind byte
	text string
}

// unifiedDiff returns the unified diff from a to b ("" when they are
// equal), with the file names of its header.
func unifiedDiff(nameA, nameB, a, b string) string {
	if a == b {
		return ""
	}
	ops := editScript(splitLines(a), splitLines(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from diffContext kept lines before the first change to
		// diffContext after the last change that is closer than
		// 2*diffContext kept lines to the next.
		start := max(0, i-diffContext)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*diffContext {
				end = min(len(ops), end+diffContext)
				break
			}
			end = run
		}
		writeHunk(&out, ops, start, end)
		i = end
	}
	return out.String()
}

// writeHunk writes ops[start:end] with its @@ header.
func writeHunk(out *strings.Builder, ops []diffOp, start, end int) {
	lineA, lineB := 1, 1
	for _, op := range ops[:start] {
		if op.kind != '+' {
			lineA++
		}
		if op.kind != '-' {
			lineB++
		}
	}
	countA, countB := 0, 0
	for _, op := range ops[start:end] {
		if op.kind != '+' {
			countA++
		}
		if op.kind != '-' {
			countB++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(lineA, countA), hunkRange(lineB, countB))
	for _, op := range ops[start:end] {
		out.WriteByte(op.kind)
		out.WriteString(strings.TrimSuffix(op.text, "\n"))
		out.WriteByte('\n')
		if !strings.HasSuffix(op.text, "\n") {
			out.WriteString("\\ No newline at end of file\n")
		}
	}
}

// hunkRange renders "line,count" (an empty range names the line before it).
func hunkRange(line, count int) string {
	if count == 0 {
		line--
	}
	if count == 1 {
		return fmt.Sprint(line)
	}
	return fmt.Sprintf("%d,%d", line, count)
}

// splitLines splits s after each newline (the last line may lack one).
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// editScript returns a shortest edit script from a to b: common prefix and
// suffix, and a longest common subsequence of the middle when its table
// is small enough.
func editScript(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for _, l := range a[:pre] {
		ops = append(ops, diffOp{' ', l})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if (len(ma)+1)*(len(mb)+1) <= maxDiffCells {
		ops = append(ops, lcsScript(ma, mb)...)
	} else {
		for _, l := range ma {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range mb {
			ops = append(ops, diffOp{'+', l})
		}
	}
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, diffOp{' ', l})
	}
	return ops
}

// lcsScript is the edit script of a longest common subsequence.
func lcsScript(a, b []string) []diffOp {
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w) // lcs[i*w+j]: of a[i:] and b[j:]
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i]})
			i, j = i+1, j+1
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			ops = append(ops, diffOp{'-', a[i]})
			i++
		default:
			ops = append(ops, diffOp{'+', b[j]})
			j++
		}
	}
	for ; i < len(a); i++ {
		ops = append(ops, diffOp{'-', a[i]})
	}
	for ; j < len(b); j++ {
		ops = append(ops, diffOp{'+', b[j]})
	}
	return ops
}
