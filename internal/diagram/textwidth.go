package diagram

import "github.com/mattn/go-runewidth"

// helveticaWidths are the advance widths of the printable ASCII characters
// (space to tilde) in Helvetica, in thousandths of the font size. The
// layout only needs an estimate: the picture asks for Helvetica, Arial or
// a sans-serif, whose widths are close to these.
var helveticaWidths = [95]uint16{
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space to /
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0 to ?
	1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ to O
	667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P to _
	333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` to o
	556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p to ~
}

// textWidth estimates the width of s set in size points: the Helvetica
// width of an ASCII character, a full em for a wide (East Asian) one,
// nothing for a combining mark and 0.6 em for any other.
func textWidth(s string, size float64) float64 {
	var w float64
	for _, r := range s {
		switch {
		case r >= ' ' && r <= '~':
			w += float64(helveticaWidths[r-' '])
		default:
			switch runewidth.RuneWidth(r) {
			case 0:
			case 2:
				w += 1000
			default:
				w += 600
			}
		}
	}
	return w * size / 1000
}
