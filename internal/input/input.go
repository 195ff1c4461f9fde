package input

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DefaultMaxBytes is the default size limit of one input file (64 MiB).
const DefaultMaxBytes int64 = 64 << 20

// bom is the UTF-8 byte order mark some editors write at the start of a file.
var bom = []byte{0xEF, 0xBB, 0xBF}

// Reader reads input files of at most MaxBytes bytes each. With Root set,
// paths are resolved inside it: neither ".." nor a symbolic link can leave
// it (os.Root enforces that).
type Reader struct {
	MaxBytes int64    // <= 0 means DefaultMaxBytes
	Root     *os.Root // nil: paths are resolved as given
	// ImportRoot is the directory a model's imports must stay inside
	// (--import-root); "" means the directory of the top-level model.
	ImportRoot string
}

// TooLargeError reports a file over the size limit.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than the input limit of %d bytes (--max-input-bytes)", e.Path, e.Limit)
}

// Limit is the size limit in bytes (MaxBytes, or DefaultMaxBytes).
func (r Reader) Limit() int64 {
	if r.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return r.MaxBytes
}

// NotRegularError reports a path that names a named pipe, a device or a
// socket: reading one can block forever (a pipe without a writer) or never
// end, so only regular files are read.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	what := "not a regular file"
	switch {
	case e.Mode.IsDir():
		return fmt.Sprintf("%s is a directory", e.Path)
	case e.Mode&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case e.Mode&fs.ModeSocket != 0:
		what = "a socket"
	case e.Mode&fs.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Sprintf("%s is %s: only regular files are read, since reading a pipe or a device can block or never end", e.Path, what)
}

// ReadFile returns the contents of path without a leading UTF-8 byte order
// mark. The error names the path and never quotes the contents. A path
// that is not a regular file is refused before it is opened (opening a
// named pipe blocks until a writer comes).
func (r Reader) ReadFile(path string) ([]byte, error) {
	if err := r.regular(path); err != nil {
		return nil, err
	}
	f, err := r.open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := regular(path, st); err != nil {
		return nil, err // replaced since the check
	}
	return r.readAll(path, f, st)
}

func trimBOM(data []byte) []byte { return bytes.TrimPrefix(data, bom) }

// regular refuses a path whose target is not a regular file, before it
// is opened.
func (r Reader) regular(path string) error {
	var st fs.FileInfo
	var err error
	if r.Root == nil {
		st, err = os.Stat(path)
	} else {
		name, nerr := r.rootName(path)
		if nerr != nil {
			return nerr
		}
		st, err = r.Root.Stat(name)
	}
	if err != nil {
		return nil // open reports it, with the root's wording
	}
	if !st.Mode().IsRegular() {
		return &NotRegularError{path, st.Mode()}
	}
	return nil
}

// rootName is path relative to the root.
func (r Reader) rootName(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return path, nil
	}
	// An absolute path is accepted when it names a file under the root;
	// os.Root itself takes relative names only.
	rel, err := filepath.Rel(r.Root.Name(), path)
	if err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%s is outside the served root %s", path, r.Root.Name())
	}
	return rel, nil
}

func (r Reader) open(path string) (*os.File, error) {
	if r.Root == nil {
		return os.OpenFile(path, openFlags, 0)
	}
	name, err := r.rootName(path)
	if err != nil {
		return nil, err
	}
	f, err := r.Root.OpenFile(name, openFlags, 0)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			// The escape error of os.Root is unexported; any other
			// failure to resolve the name is reported as leaving the root.
			return nil, fmt.Errorf("%s: cannot be opened under the served root %s: %v", path, r.Root.Name(), pe.Err)
		}
		return nil, err
	}
	return f, nil
}
