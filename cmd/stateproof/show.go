package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/stateproof/stateproof/internal/show"
)

// defaultWidth is the display width when stdout is not a terminal.
const defaultWidth = 100

func newShowCmd(stdout, stderr io.Writer) *cobra.Command {
	var opt show.Options
	cmd := &cobra.Command{
		Use:   "show MODEL.json [--form A|B|C|auto] [--width N]",
		Short: "Present the model for confirmation, with its narrative inline",
		Long: `show presents the transitions of a model with what its narrative says about
them, for a person to confirm that the model is the machine they meant:

  A  one row per transition: state, event and next state with their meanings
     shortened in parentheses, the scenario as the last column (the default);
  B  sentence blocks: the scenario, then "state / event / next" with the
     full meanings (for detailed confirmation);
  C  one small table per source state; a group whose table would not fit is
     a list, one line per event.
  auto  C for 15 transitions or more or a display narrower than 60 columns,
     B for 10 or fewer with --detail, else A.

Meanings are cut to at most 6 characters and scenarios to 10 (a CJK character
is one), and shorter only as far as the width needs; widths are display
columns (CJK characters count 2), and no line of A or C is wider than --width.
--width defaults to the terminal's width, or 100 when stdout is not a terminal.
Form A falls back to form C when a row would not fit even shortened, and says
so. --form is read in any case (a, B, Auto). The labels are Chinese when the
narrative is. A state, event or scenario the narrative does not describe is
shown by its bare id.

--detail with a --form other than auto is refused (exit 2): it only chooses
among the forms of --form auto.`,
		Example: `  stateproof show examples/order.json
  stateproof show examples/order.json --form B
  stateproof show examples/order.json --form auto --width 50`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("width") {
				opt.Width = terminalWidth(stdout)
			}
			if opt.Detail && opt.Form != "" && !strings.EqualFold(opt.Form, show.FormAuto) {
				return showUsage(stderr, "--detail has no effect with --form %s: it chooses between the forms of --form auto", opt.Form)
			}
			if opt.Width < 1 {
				return showUsage(stderr, "--width must be an integer >= 1")
			}
			res, ref := readModel(inputReader(cmd), args[0], "")
			if ref != nil {
				return showUsage(stderr, "%s", ref.msg)
			}
			if !res.Valid() {
				return showUsage(stderr, "%s is not a valid model:\n  %s", args[0], strings.Join(res.Errors, "\n  "))
			}
			text, _, err := show.Render(show.FromJSON(res.Model), opt)
			if err != nil {
				return showUsage(stderr, "%v", err)
			}
			_, err = io.WriteString(stdout, text)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&opt.Form, "form", show.FormA, "presentation form: A, B, C or auto")
	f.IntVar(&opt.Width, "width", defaultWidth, "display width in columns (default: the terminal's, else 100)")
	f.BoolVar(&opt.Detail, "detail", false, "with --form auto: ask for detailed confirmation (form B for 10 transitions or fewer)")
	return cmd
}

func showUsage(stderr io.Writer, format string, args ...any) error {
	fmt.Fprintf(stderr, "stateproof show: "+format+"\n", args...)
	return &exitError{2}
}

// terminalWidth is the width of the terminal w writes to, or defaultWidth.
func terminalWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return defaultWidth
}
