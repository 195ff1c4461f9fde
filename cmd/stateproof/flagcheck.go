package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// A flag that has no effect in the mode the other flags choose is refused
// (exit 2) instead of being accepted and ignored: a user who sets --memory
// on a swarm member would otherwise believe it spills. The
// refusals are listed with each command's flags (docs/cli, docs/scale.md).

// setFlag returns the first of names the command line sets ("--name"), or
// "" when it sets none.
func setFlag(cmd *cobra.Command, names ...string) string {
	for _, n := range names {
		if f := cmd.Flags().Lookup(n); f != nil && f.Changed {
			return "--" + n
		}
	}
	return ""
}

// spillFlagNames are the flags of the disk-backed search (spill.go).
var spillFlagNames = []string{"memory", "spill-dir", "max-disk"}

// peerFlagNames say where the other workers of --partition are.
var peerFlagNames = []string{"peers", "peers-file", "peers-dns", "token-file", "tls-cert", "tls-key", "tls-ca"}

// verifyIgnored is the refusal of a verify flag that the mode the other
// flags choose (swarm, partition, hash check) would ignore, or "".
func verifyIgnored(cmd *cobra.Command, sc *scaleFlags, out outputFlags) string {
	part := setFlag(cmd, "partition", "local-partitions")
	swarm := setFlag(cmd, "swarm")
	if msg := baselineIgnored(cmd); msg != "" {
		return msg
	}
	if f := setFlag(cmd, "seed"); f != "" && swarm == "" {
		return f + " is the seed of --swarm: it has no effect without --swarm"
	}
	if f := setFlag(cmd, peerFlagNames...); f != "" {
		switch {
		case sc.part.local > 0:
			return f + " has no effect with --local-partitions: it starts its own workers on 127.0.0.1 with a token of its own"
		case sc.part.share == "":
			return f + " has no effect without --partition: it describes the other workers of a partitioned search"
		}
	}
	if f := setFlag(cmd, "peer-timeout", "start-timeout", "gather"); f != "" && part == "" {
		return f + " has no effect without --partition or --local-partitions"
	}
	if part != "" {
		if f := setFlag(cmd, "progress"); f != "" {
			return f + " has no effect with " + part + ": a worker shows no progress"
		}
	}
	if swarm != "" {
		// a member runs its own depth-first search and writes a swarm
		// report: none of the checks' options reach it
		if f := setFlag(cmd, append([]string{"workers", "max-findings", "max-permutation-events", "allow-undecided", "legacy-exit-codes", "progress", "color"}, spillFlagNames...)...); f != "" {
			return f + " has no effect with --swarm: a member runs one depth-first search for invariant violations and writes a swarm report (docs/scale.md#swarm)"
		}
	}
	if cmd.Flags().Changed("hash-check") {
		if f := setFlag(cmd, append([]string{"max-states", "workers", "max-findings", "max-permutation-events", "hash-spec", "prove", "allow-undecided", "legacy-exit-codes", "progress", "color"}, spillFlagNames...)...); f != "" {
			return f + " has no effect with --hash-check: it hashes the model with every published spec and runs no check"
		}
	}
	return ""
}

// colorIgnored is the refusal of --color where the text is not coloured:
// another format, a report written to a file.
func (o outputFlags) colorIgnored(cmd *cobra.Command) string {
	if !cmd.Flags().Changed("color") {
		return ""
	}
	if o.format != "text" {
		return fmt.Sprintf("--color has no effect with --format %s: only text is coloured", o.format)
	}
	if o.out != "" {
		return "--color has no effect with --output: a report written to a file is never coloured"
	}
	return ""
}

// noColor is the refusal of --color by a command whose text is never
// coloured.
func noColor(cmd *cobra.Command) string {
	if cmd.Flags().Changed("color") {
		return "--color has no effect on stateproof " + cmd.Name() + ": its text report is not coloured"
	}
	return ""
}

// persistentIgnored is the refusal of a root flag the command never uses:
// gen and schema read no file, and JSON models import nothing.
func persistentIgnored(cmd *cobra.Command, args []string) string {
	readsNothing := map[string]bool{"gen": true, "schema": true}
	importsNothing := map[string]bool{"compose": true, "merge": true, "show": true, "fmt": true}
	name := cmd.Name()
	if readsNothing[name] {
		if f := setFlag(cmd, maxInputFlag, importRootFlag); f != "" {
			return f + " has no effect on stateproof " + name + ": it reads no file"
		}
	}
	if !cmd.Flags().Changed(importRootFlag) {
		return ""
	}
	if importsNothing[name] {
		return "--" + importRootFlag + " has no effect on stateproof " + name + ": it resolves no FCSTM import"
	}
	if name == "verify" && len(args) == 1 && !isFCSTM(args[0]) {
		return "--" + importRootFlag + " has no effect on a JSON model: only FCSTM models import files"
	}
	return ""
}

// baselineIgnored is the refusal of --allow-undecided with --baseline:
// a baseline diff exits 0 or 1, never 3 (docs/reports.md#exit-codes).
func baselineIgnored(cmd *cobra.Command) string {
	if setFlag(cmd, "baseline") != "" && setFlag(cmd, "allow-undecided") != "" {
		return "--allow-undecided has no effect with --baseline: the diff exits 0 or 1, never 3"
	}
	return ""
}
