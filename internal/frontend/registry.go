package frontend

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/input"
)

// A Registry is the set of formats a program accepts. It is built once,
// where the program starts (no package-level state).
type Registry struct {
	formats []Format
}

// NewRegistry returns a registry of the given formats; the first one that
// claims an extension wins.
func NewRegistry(formats ...Format) *Registry {
	return &Registry{formats: slices.Clone(formats)}
}

// Names lists the format names, for help text and errors.
func (r *Registry) Names() []string {
	var out []string
	for _, f := range r.formats {
		out = append(out, f.Name())
	}
	return out
}

// For chooses the format of path: by name when name is not empty
// (--format-in), else by the file's extension.
func (r *Registry) For(path, name string) (Format, error) {
	if name != "" {
		for _, f := range r.formats {
			if f.Name() == name {
				return f, nil
			}
		}
		return nil, fmt.Errorf("unknown model format %q (known: %s)", name, strings.Join(r.Names(), ", "))
	}
	ext := filepath.Ext(path)
	for _, f := range r.formats {
		for _, e := range f.Extensions() {
			if strings.EqualFold(e, ext) {
				return f, nil
			}
		}
	}
	return nil, fmt.Errorf("%s: cannot tell the model format from the extension %q (known formats: %s; name one with --format-in)", path, ext, strings.Join(r.Names(), ", "))
}

// Load chooses the format of path (see For) and loads it.
func (r *Registry) Load(rd input.Reader, path, name string) (*Model, error) {
	f, err := r.For(path, name)
	if err != nil {
		return nil, err
	}
	return f.Load(rd, path)
}

// LoadSource loads a model given as text in the format named name (a
// format has no file extension to go by here).
func (r *Registry) LoadSource(rd input.Reader, label, name string, src []byte) (*Model, error) {
	if name == "" {
		return nil, fmt.Errorf("%s: name the model format (known formats: %s)", label, strings.Join(r.Names(), ", "))
	}
	f, err := r.For(label, name)
	if err != nil {
		return nil, err
	}
	return f.LoadSource(rd, label, src)
}
