// Package show presents a machine for confirmation, with its narrative
// inline: what each state and event means and the scenario of each
// (state, event), in one of three forms.
//
//   - Form A, a transition table: one row per transition, meanings
//     shortened in parentheses, the scenario as the last column.
//   - Form B, sentence blocks: the scenario sentence, then a fixed
//     three-line frame (state, event, next) with the full meanings.
//   - Form C, grouped by source state: a small table per state, or a
//     one-line-per-event list for a group whose table would not fit.
//
// Widths are display columns (a CJK character counts 2), measured with a
// fixed East-Asian-width setting so the output does not depend on the
// locale. Labels are Chinese when the narrative is.
package show
