package inspect

import "strings"

// DocPage is the manual page that describes every code.
const DocPage = "docs/inspect.md"

// DocPath is the place in the repository's manual that describes code:
// docs/inspect.md and the anchor of the code's own section (a heading that
// is the code alone, so its anchor is the code in lower case, as GitHub
// writes heading anchors). A load error, and a code the registry does not
// hold, point at the section on load errors. The CLI's SARIF, the language
// server and the MCP tool prefix it with their docs base URL.
func DocPath(code string) string {
	if c, ok := Lookup(code); ok && !isLoadCode(c.Name) {
		return DocPage + "#" + strings.ToLower(c.Name)
	}
	return DocPage + "#load-errors"
}

func isLoadCode(name string) bool {
	for _, c := range loadCodes() {
		if c.Name == name {
			return true
		}
	}
	return false
}
