package explicit

import (
	"encoding/binary"
	"errors"
	"hash/fnv"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

// A Machine numbers locations and step labels as it meets them, so its
// word 0 and its labels mean nothing in another process: they travel as
// what they stand for (a configuration's control, an error, a reason), and
// the receiver numbers them in its own tables.
var _ concrete.Portable = (*Machine)(nil)

var (
	errShort = errors.New("truncated FCSTM state")
	errState = errors.New("a delivered state is not one of this model's")
)

// Canon replaces word 0, the location's number here, by a hash of the
// location's encoding.
func (mc *Machine) Canon(dst, words []int64) []int64 {
	h := fnv.New64a()
	h.Write(mc.appendLoc(nil, mc.Location(words[0])))
	dst = append(dst[:0], words...)
	dst[0] = int64(h.Sum64())
	return dst
}

// AppendState writes the location, then, for a configuration, the
// variables' words (a raised or undecided location has none: they are
// zero).
func (mc *Machine) AppendState(dst []byte, words []int64) []byte {
	loc := mc.Location(words[0])
	dst = mc.appendLoc(dst, loc)
	if loc.Kind == Running || loc.Kind == Ended {
		for _, w := range words[1:] {
			dst = binary.AppendVarint(dst, w)
		}
	}
	return dst
}

// ReadState reads what AppendState wrote; a configuration is restored on
// a runtime of the model, so one the model cannot be in is an error.
func (mc *Machine) ReadState(src []byte, dst []int64) ([]byte, error) {
	kind, src, err := uvarint(src)
	if err != nil {
		return nil, err
	}
	clear(dst)
	if Kind(kind) != Running && Kind(kind) != Ended {
		return mc.readAbsorbing(Kind(kind), src, dst)
	}
	control, src, err := str(src)
	if err != nil {
		return nil, err
	}
	for k := 1; k < len(dst); k++ {
		v, n := binary.Varint(src)
		if n <= 0 {
			return nil, errShort
		}
		dst[k], src = v, src[n:]
	}
	if err := mc.restore(control, dst); err != nil {
		return nil, err
	}
	return src, nil
}

// restore makes words[0] the location of configuration control with the
// variables of words, checking that the model can be in it.
func (mc *Machine) restore(control string, words []int64) error {
	st := mc.pool.Get().(*stepper)
	defer mc.pool.Put(st)
	snap := runtime.Snapshot{Control: control, Vars: mc.unpack(words, nil)}
	if err := st.rt.Restore(snap); err != nil {
		return errState
	}
	if st.rt.Snapshot(runtime.Snapshot{}).Control != control {
		return errState
	}
	words[0] = int64(mc.intern(control, func() *Location { return mc.running(st.rt, control) }))
	return nil
}

// readAbsorbing reads a raised or undecided location into dst.
func (mc *Machine) readAbsorbing(kind Kind, src []byte, dst []int64) ([]byte, error) {
	switch kind {
	case Raised:
		typed, src, err := uvarint(src)
		if err != nil {
			return nil, err
		}
		var fields [3]string
		for i := range fields {
			if fields[i], src, err = str(src); err != nil {
				return nil, err
			}
		}
		if typed == 0 {
			mc.raised(dst, errors.New(fields[2]))
			return src, nil
		}
		var pos [2]uint64
		for i := range pos {
			if pos[i], src, err = uvarint(src); err != nil {
				return nil, err
			}
		}
		e := &runtime.Error{Class: runtime.Class(fields[0]), Message: fields[2], Pos: model.Pos{File: fields[1], Line: int(pos[0]), Col: int(pos[1])}}
		mc.raised(dst, e)
		return src, nil
	case Undecided:
		reason, src, err := str(src)
		if err != nil {
			return nil, err
		}
		mc.undecided(dst, reason)
		return src, nil
	}
	return nil, errState
}

// appendLoc writes what a location stands for.
func (mc *Machine) appendLoc(dst []byte, loc *Location) []byte {
	dst = binary.AppendUvarint(dst, uint64(loc.Kind))
	switch loc.Kind {
	case Raised:
		var re *runtime.Error
		if errors.As(loc.Err, &re) && re == loc.Err {
			dst = binary.AppendUvarint(dst, 1)
			dst = appendStr(appendStr(appendStr(dst, string(re.Class)), re.Pos.File), re.Message)
			dst = binary.AppendUvarint(dst, uint64(max(re.Pos.Line, 0)))
			return binary.AppendUvarint(dst, uint64(max(re.Pos.Col, 0)))
		}
		dst = binary.AppendUvarint(dst, 0)
		return appendStr(appendStr(appendStr(dst, ""), ""), loc.Err.Error())
	case Undecided:
		return appendStr(dst, loc.Reason)
	}
	return appendStr(dst, loc.control)
}

// readLoc reads a location appendLoc wrote and returns its number here.
func (mc *Machine) readLoc(src []byte) (int, []byte, error) {
	words := make([]int64, mc.Width())
	kind, rest, err := uvarint(src)
	if err != nil {
		return 0, nil, err
	}
	if Kind(kind) != Running && Kind(kind) != Ended {
		rest, err = mc.readAbsorbing(Kind(kind), rest, words)
		return int(words[0]), rest, err
	}
	control, rest, err := str(rest)
	if err != nil {
		return 0, nil, err
	}
	// a location is its control alone: any variables (zeros) restore it
	if err := mc.restore(control, words); err != nil {
		return 0, nil, err
	}
	return int(words[0]), rest, nil
}

// AppendLabel writes the location a step leaves, its input set and the
// location it enters.
func (mc *Machine) AppendLabel(dst []byte, t int) []byte {
	l := mc.labels.at(t)
	dst = mc.appendLoc(dst, mc.locs.at(l.from))
	dst = binary.AppendUvarint(dst, l.mask)
	return mc.appendLoc(dst, mc.locs.at(l.to))
}

// ReadLabel reads what AppendLabel wrote; an input set that names events
// the location does not read is an error.
func (mc *Machine) ReadLabel(src []byte) (int, []byte, error) {
	from, src, err := mc.readLoc(src)
	if err != nil {
		return 0, nil, err
	}
	mask, src, err := uvarint(src)
	if err != nil {
		return 0, nil, err
	}
	to, src, err := mc.readLoc(src)
	if err != nil {
		return 0, nil, err
	}
	loc := mc.Location(int64(from))
	n := len(loc.events)
	if !mc.reduce {
		n = len(mc.names)
	}
	if loc.Kind != Running || n < 64 && mask>>n != 0 {
		return 0, nil, errors.New("a delivered step is not one of this model's")
	}
	return mc.label(label{from: from, to: to, mask: mask}), src, nil
}

func appendStr(dst []byte, s string) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(s))), s...)
}

func uvarint(src []byte) (uint64, []byte, error) {
	x, n := binary.Uvarint(src)
	if n <= 0 {
		return 0, nil, errShort
	}
	return x, src[n:], nil
}

func str(src []byte) (string, []byte, error) {
	k, src, err := uvarint(src)
	if err != nil || k > uint64(len(src)) {
		return "", nil, errShort
	}
	return string(src[:k]), src[k:], nil
}
