package input

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ErrOutsideRoot is wrapped by ReadFileIn's refusals of a path that leaves
// its directory (lexically, or through a symbolic link).
var ErrOutsideRoot = errors.New("outside the import root")

// ReadFileIn is ReadFile of path, which must name a regular file inside
// the directory dir: path is given as ReadFile takes it (relative to the
// working directory, or to Root when set) and so is dir. An absolute
// path, a ".." that leaves dir, a symbolic link resolving outside it, a
// directory and any file that is not regular (a FIFO, a device) are
// refused without reading anything, so the error never depends on the
// file's contents and a FIFO never blocks.
func (r Reader) ReadFileIn(dir, path string) ([]byte, error) {
	if r.Root == nil && filepath.IsAbs(dir) != filepath.IsAbs(path) {
		// One given relative to the working directory, one absolute.
		var err error
		if dir, err = filepath.Abs(dir); err == nil {
			path, err = filepath.Abs(path)
		}
		if err != nil {
			return nil, err
		}
	}
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	if err != nil || !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("%s is %w %s", path, ErrOutsideRoot, dir)
	}
	if r.Root == nil {
		// os.Root refuses every absolute link, even one into the tree:
		// resolve the links first and check where they lead.
		if dir, rel, err = resolveLinks(dir, path); err != nil {
			return nil, err
		}
	}
	root, err := r.openDir(dir)
	if err != nil {
		return nil, fmt.Errorf("import root %s: %w", dir, err)
	}
	defer root.Close()
	// Stat before open: os.Root follows links only while they stay
	// inside root, and a FIFO is refused here, before an open could block.
	st, err := root.Stat(rel)
	if err != nil {
		return nil, confinedError(path, dir, err)
	}
	if err := regular(path, st); err != nil {
		return nil, err
	}
	// O_NONBLOCK so that a file swapped for a FIFO after the Stat does not
	// block the open; the Stat of the open file decides.
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, confinedError(path, dir, err)
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := regular(path, st); err != nil {
		return nil, err
	}
	return r.readAll(path, f, st)
}

// resolveLinks returns dir with its links resolved and the name of path
// under it, links resolved too; a path that resolves outside dir is
// refused. os.Root re-checks every step when the file is opened, so a
// link changed in between cannot lead out either.
func resolveLinks(dir, path string) (string, string, error) {
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", "", fmt.Errorf("import root %s: %w", dir, err)
	}
	realPath, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", "", confinedError(path, dir, err)
	}
	if filepath.IsAbs(realDir) != filepath.IsAbs(realPath) {
		if realDir, err = filepath.Abs(realDir); err == nil {
			realPath, err = filepath.Abs(realPath)
		}
		if err != nil {
			return "", "", err
		}
	}
	rel, err := filepath.Rel(realDir, realPath)
	if err != nil || !filepath.IsLocal(rel) {
		return "", "", fmt.Errorf("%s resolves %w %s (a symbolic link cannot lead out of it)", path, ErrOutsideRoot, dir)
	}
	return realDir, rel, nil
}

// openDir opens dir as a root, inside r.Root when that is set.
func (r Reader) openDir(dir string) (*os.Root, error) {
	if r.Root == nil {
		return os.OpenRoot(dir)
	}
	name := dir
	if filepath.IsAbs(dir) {
		rel, err := filepath.Rel(r.Root.Name(), dir)
		if err != nil || !filepath.IsLocal(rel) && rel != "." {
			return nil, fmt.Errorf("%s is outside the served root %s", dir, r.Root.Name())
		}
		name = rel
	}
	return r.Root.OpenRoot(name)
}

// regular refuses st, the file at path, unless it is a regular file.
func regular(path string, st fs.FileInfo) error {
	if !st.Mode().IsRegular() {
		return &NotRegularError{path, st.Mode()}
	}
	return nil
}

// confinedError reports a failed Stat or open under the import root
// without the root's internals: os.Root's refusal of a link or ".." that
// leaves the root has no exported error, so it is recognised by being
// neither a missing file nor a permission problem.
func confinedError(path, dir string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOTDIR) {
		return fmt.Errorf("%s: %w", path, err)
	}
	return fmt.Errorf("%s resolves %w %s (%v)", path, ErrOutsideRoot, dir, err)
}

// readAll reads an open regular file under the size limit, without a
// leading byte order mark.
func (r Reader) readAll(path string, f *os.File, st fs.FileInfo) ([]byte, error) {
	limit := r.Limit()
	if st.Size() > limit {
		return nil, &TooLargeError{path, limit}
	}
	// The file may grow while it is read: read one byte past the limit to
	// tell "exactly the limit" from "more".
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{path, limit}
	}
	return trimBOM(data), nil
}
