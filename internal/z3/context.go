package z3

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Context is a Z3 logical context: the owner of every sort, term, solver and
// model created from it. Create one with NewContext and release it with
// Close. A Context is not safe for concurrent use.
type Context struct {
	z      z3_context
	life   *lifeline
	closed bool // only read and written by the owning goroutine
	holds  int  // open Hold calls; only the owning goroutine touches it

	boolSort, intSort, realSort *Sort
}

// releaseKind says which Z3 dec_ref function releases a queued object.
type releaseKind uint8

const (
	releaseAST releaseKind = iota
	releaseSolver
	releaseModel
)

// release is one Z3 reference waiting to be given back.
type release struct {
	kind releaseKind
	ptr  uintptr
}

// lifeline is the part of a Context that runtime cleanups may touch. It
// outlives the Context value itself for as long as any cleanup refers to it.
type lifeline struct {
	mu      sync.Mutex
	dead    bool      // guarded by mu: the Z3 context has been deleted
	pending []release // guarded by mu

	npending atomic.Int64 // len(pending), readable without the lock
	released atomic.Int64 // references given back so far (for tests)
}

// cleanupArg is what a wrapper's cleanup needs: never the wrapper itself.
type cleanupArg struct {
	life *lifeline
	rel  release
}

// enqueueRelease runs on a runtime cleanup goroutine. It must not call Z3.
func enqueueRelease(a cleanupArg) {
	l := a.life
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dead {
		return // Z3_del_context already freed the object
	}
	l.pending = append(l.pending, a.rel)
	l.npending.Store(int64(len(l.pending)))
}

// NewContext creates a Z3 context with reference-counted objects and an error
// handler that never aborts the process.
//
// It loads libz3 on first use; without it the error wraps ErrNotInstalled
// and says how to install it.
func NewContext() (*Context, error) {
	if _, err := load(); err != nil {
		return nil, err
	}
	cfg := z3_mk_config()
	if cfg == 0 {
		return nil, &Error{Op: "NewContext", Kind: ErrorException, Message: "Z3_mk_config failed"}
	}
	z := z3_mk_context_rc(cfg)
	z3_del_config(cfg)
	if z == 0 {
		return nil, &Error{Op: "NewContext", Kind: ErrorException, Message: "Z3_mk_context_rc failed"}
	}
	// A NULL handler: Z3 then leaves the error code in the context for
	// lastError to read, instead of printing it and exiting the process.
	z3_set_error_handler(z, 0)
	c := &Context{z: z, life: &lifeline{}}
	var err error
	if c.boolSort, err = c.sortResult("NewContext", z3_mk_bool_sort(z)); err != nil {
		c.Close()
		return nil, err
	}
	if c.intSort, err = c.sortResult("NewContext", z3_mk_int_sort(z)); err != nil {
		c.Close()
		return nil, err
	}
	if c.realSort, err = c.sortResult("NewContext", z3_mk_real_sort(z)); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Close deletes the Z3 context and every object created from it. Objects of
// the Context must not be used afterwards; calls on them return an error
// wrapping ErrClosed. Close is idempotent and safe on a nil Context.
func (c *Context) Close() error {
	if c.retire() {
		z3_del_context(c.z)
		c.z = 0
	}
	return nil
}

// Abandon is Close for a process about to exit: the Context becomes
// unusable exactly as after Close, but its memory is left to the
// operating system, because deleting a context walks every object in it
// (several milliseconds even for a small query, a large part of a short
// command's run time). Use it only on the way out of main.
func (c *Context) Abandon() {
	if c.retire() {
		c.z = 0
	}
}

// retire marks the Context closed and stops its cleanups from queueing
// releases; false when it already was (or c is nil).
func (c *Context) retire() bool {
	if c == nil || c.closed {
		return false
	}
	c.closed = true
	l := c.life
	l.mu.Lock()
	l.dead = true
	l.pending = nil
	l.npending.Store(0)
	l.mu.Unlock()
	return true
}

// begin is called first by every operation of the Context or of one of its
// objects: it rejects a nil or closed Context and gives back the references
// queued by cleanups since the last call.
func (c *Context) begin(op string) error {
	if c == nil {
		return &Error{Op: op, Kind: ErrorInvalidArg, Message: "nil Context"}
	}
	if c.closed {
		return closedError(op)
	}
	if c.holds == 0 && c.life.npending.Load() > 0 {
		c.drain()
	}
	return nil
}

// Hold keeps every reference the Context's cleanups queue until the
// returned function is called (holds nest; the last one to end lets the
// next call give them all back), so that no term dies meanwhile.
//
// Z3 numbers terms with IDs it recycles from dead ones, and orders terms
// by ID inside its simplifier and search. When references go back at the
// moments the garbage collector happens to pick, the same sequence of
// calls builds terms with different IDs from run to run, and Z3 takes a
// different path through the same formula: one bmc query took 0.4 s or
// more than 100 s (docs/fcstm.md, "Run-to-run time"). Under Hold the IDs,
// and so Z3's work, depend only on the calls made. The price is memory:
// the terms dropped while holding live until the hold ends.
func (c *Context) Hold() (end func()) {
	if c == nil || c.closed {
		return func() {}
	}
	c.holds++
	var once sync.Once
	return func() { once.Do(func() { c.holds-- }) }
}

// drain gives back to Z3 every reference queued by cleanups. It runs on the
// owning goroutine, before the current operation touches any raw pointer.
func (c *Context) drain() {
	l := c.life
	l.mu.Lock()
	batch := l.pending
	l.pending = nil
	l.npending.Store(0)
	l.mu.Unlock()
	for _, r := range batch {
		switch r.kind {
		case releaseAST:
			z3_dec_ref(c.z, z3_ast(r.ptr))
		case releaseSolver:
			z3_solver_dec_ref(c.z, z3_solver(r.ptr))
		case releaseModel:
			z3_model_dec_ref(c.z, z3_model(r.ptr))
		}
	}
	l.released.Add(int64(len(batch)))
}

// track registers the cleanup that gives back obj's Z3 reference.
func track[T any](c *Context, obj *T, kind releaseKind, ptr uintptr) {
	runtime.AddCleanup(obj, enqueueRelease, cleanupArg{life: c.life, rel: release{kind: kind, ptr: ptr}})
}

// lastError turns a pending Z3 error code into an *Error and clears it.
func (c *Context) lastError(op string) error {
	code := z3_get_error_code(c.z)
	if code == z3_OK {
		return nil
	}
	msg := z3_get_error_msg(c.z, code)
	z3_set_error(c.z, z3_OK)
	return newZ3Error(op, code, msg)
}

// newTerm wraps an expression Z3 has just returned, taking one reference.
func (c *Context) newTerm(a z3_ast) *Term {
	z3_inc_ref(c.z, a)
	t := &Term{ctx: c, ast: a}
	track(c, t, releaseAST, uintptr(a))
	return t
}

// result checks the error code of the call that produced a and wraps a.
//
// A Z3 function that fails sets the context's error code and returns a
// null handle, so a term that is not null needs no second call to read the
// code: every call into libz3 costs a C call, and a formula takes many.
func (c *Context) result(op string, a z3_ast) (*Term, error) {
	if a != 0 {
		return c.newTerm(a), nil
	}
	if err := c.lastError(op); err != nil {
		return nil, err
	}
	return nil, &Error{Op: op, Kind: ErrorException, Message: "Z3 returned no term"}
}

// symbol makes a Z3 string symbol. Symbols are interned by Z3 and need no
// reference counting.
func (c *Context) symbol(name string) z3_symbol {
	cs := name
	return z3_mk_string_symbol(c.z, cs)
}

// symbolString renders a Z3 symbol (string or integer symbol).
func (c *Context) symbolString(s z3_symbol) string {
	if z3_get_symbol_kind(c.z, s) == z3_INT_SYMBOL {
		return itoa(int64(z3_get_symbol_int(c.z, s)))
	}
	return z3_get_symbol_string(c.z, s)
}

// Version reports the version of the loaded libz3, e.g. "4.8.12.0", or ""
// when libz3 cannot be loaded.
func Version() string {
	if _, err := load(); err != nil {
		return ""
	}
	return z3_get_full_version()
}
