// Package htmlreport renders a report of verify, compose, bmc or prove as
// one self-contained HTML page: the verdict first, the machine drawn, the
// findings grouped by check and, for each finding with a path, the walk
// drawn on the machine with a step-through (previous/next) and the
// variable values at every step.
//
// The page loads nothing: its style and script are inlined and the
// pictures are inline SVG. Without JavaScript every picture and table is
// still there (the step-through only moves a highlight). Colours are not
// the only cue (every verdict and mark also has a word, an icon or a line
// style), and a dark colour scheme is honoured.
package htmlreport
