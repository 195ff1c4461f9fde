//go:build !race

package explicit

const raceEnabled = false
