// Package formats builds the registry of every model format stateproof
// reads. It is the one place a format is registered: a new front end is a
// package implementing frontend.Format and one line here.
package formats

import (
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/fcstmfront"
	"github.com/stateproof/stateproof/internal/frontend/jsonfront"
)

// Registry returns a new registry of the known formats.
func Registry() *frontend.Registry {
	return frontend.NewRegistry(
		jsonfront.Format{},
		fcstmfront.Format{},
	)
}
