package concrete

// A Portable machine's states and step labels can leave the process: a
// partitioned search (package cluster) hands them between processes that
// loaded the same model. A format's words need not mean the same in two
// processes (the JSON runtime's big integers are handles into a table of
// its own, the FCSTM machine numbers locations as it meets them); the
// encodings must. A format gets partitioned searches by implementing it
// (docs/architecture.md).
type Portable interface {
	Machine
	// Canon returns a state's words with whatever only this process
	// understands replaced by values equal in every process for equal
	// states (written into dst, Width words, or words itself when nothing
	// needs replacing): a partitioned search hashes them to choose the
	// process that owns the state.
	Canon(dst, words []int64) []int64
	// AppendState appends the encoding of a state's words to dst: the
	// same bytes in every process for equal states.
	AppendState(dst []byte, words []int64) []byte
	// ReadState decodes a state AppendState wrote at the front of src into
	// dst (Width words) and returns the bytes after it. Bytes that encode
	// no state of the model are an error, never a panic: they come from
	// the network.
	ReadState(src []byte, dst []int64) ([]byte, error)
	// AppendLabel and ReadLabel do the same for step labels.
	AppendLabel(dst []byte, label int) []byte
	ReadLabel(src []byte) (label int, rest []byte, err error)
}
