package input

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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

// ReadFile returns the contents of path without a leading UTF-8 byte order
// mark. The error names the path and never quotes the contents.
func (r Reader) ReadFile(path string) ([]byte, error) {
	limit := r.Limit()
	f, err := r.open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	} else if err == nil && st.Mode().IsRegular() && st.Size() > limit {
		return nil, &TooLargeError{path, limit}
	}
	// Devices and pipes have no size: read one byte past the limit to
	// tell "exactly the limit" from "more".
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{path, limit}
	}
	return bytes.TrimPrefix(data, bom), nil
}

func (r Reader) open(path string) (*os.File, error) {
	if r.Root == nil {
		return os.Open(path)
	}
	name := path
	if filepath.IsAbs(path) {
		// An absolute path is accepted when it names a file under the
		// root; os.Root itself takes relative names only.
		rel, err := filepath.Rel(r.Root.Name(), path)
		if err != nil || !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("%s is outside the served root %s", path, r.Root.Name())
		}
		name = rel
	}
	f, err := r.Root.Open(name)
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
