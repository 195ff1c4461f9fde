package report

import "fmt"

// OptionError is an option value a tool refuses (a BAD_OPTION refusal).
// Option is the option's name as the JSON interfaces spell it (maxStates);
// the command line renders it as its flag (--max-states).
type OptionError struct {
	Option  string
	Problem string
}

func (e *OptionError) Error() string { return e.Option + " " + e.Problem }

// MaxStatesLimit bounds every search cap: a larger cap only postpones the
// refusal until memory runs out, and a search that needs more states is
// better split or proved (stateproof prove) than enumerated.
const MaxStatesLimit = 100_000_000

// CheckMaxStates refuses a search cap outside 1..MaxStatesLimit.
func CheckMaxStates(n int) error {
	return CheckRange("maxStates", n, 1, MaxStatesLimit)
}

// CheckRange refuses n outside lo..hi (hi < lo: no upper bound).
func CheckRange(option string, n, lo, hi int) error {
	if n < lo || (hi >= lo && n > hi) {
		if hi < lo {
			return &OptionError{option, fmt.Sprintf("must be an integer >= %d (got %d)", lo, n)}
		}
		return &OptionError{option, fmt.Sprintf("must be an integer from %d to %d (got %d)", lo, hi, n)}
	}
	return nil
}

// CheckHashSpec refuses a hash spec other than v0 and v1.
func CheckHashSpec(spec string) error {
	if spec != "v0" && spec != "v1" {
		return &OptionError{"hashSpec", fmt.Sprintf("must be v0 or v1 (got %q)", spec)}
	}
	return nil
}
