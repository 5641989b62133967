package cluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
)

// maxLayoutBytes bounds what ParseLayout reads: CLUSTER NODES of a thousand nodes with
// scattered slots stays far below it.
const maxLayoutBytes = 16 << 20

// ParseLayout reads the slot layout of a running cluster from r, in one of these formats:
//
//   - the output of CLUSTER NODES, or a node's nodes.conf (the same lines, and a "vars" line);
//   - the output of CLUSTER SHARDS (Redis 7.0 and later) as redis-cli prints it: to a
//     terminal (numbered lines), to a pipe or with --raw (one value a line), or with --json,
//     over RESP2 or RESP3 (-3) alike.
//
// Every primary that owns slots becomes a shard; shards are ordered by the first slot they
// own, so that shard 0 owns slot 0. Slots being migrated or imported ("[5461->-id]") count
// for the node that owns them now. The slots must form a valid Layout: each owned by exactly
// one primary. Errors wrap ErrLayout and name the line at fault.
func ParseLayout(r io.Reader) (*Layout, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxLayoutBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read slot layout: %w", err)
	}
	if len(b) > maxLayoutBytes {
		return nil, fmt.Errorf("%w: more than %d MiB: not a cluster layout", ErrLayout, maxLayoutBytes>>20)
	}
	text := string(b)
	first, line := firstLine(text)
	var shards []Shard
	switch {
	case first == "":
		return nil, fmt.Errorf("%w: empty (want the output of CLUSTER NODES or CLUSTER SHARDS, or a nodes.conf)", ErrLayout)
	case strings.HasPrefix(first, "(error) ") || strings.HasPrefix(first, "ERR "):
		return nil, fmt.Errorf("%w: line %d holds an error reply: %.80s", ErrLayout, line, strings.TrimPrefix(first, "(error) "))
	case first[0] == '[' || first[0] == '{':
		toks, err := jsonTokens(b)
		if err != nil {
			return nil, err
		}
		shards, err = parseShards(toks)
		if err != nil {
			return nil, err
		}
	case indexPrefixLen(first) > 0:
		toks, err := ttyTokens(text)
		if err != nil {
			return nil, err
		}
		if shards, err = parseShards(toks); err != nil {
			return nil, err
		}
	case first == "slots" || strings.HasPrefix(first, "slots "):
		if shards, err = parseShards(rawTokens(text)); err != nil {
			return nil, err
		}
	default:
		if shards, err = parseNodes(text); err != nil {
			return nil, err
		}
	}
	if len(shards) == 0 {
		return nil, fmt.Errorf("%w: no primary owns any slot", ErrLayout)
	}
	slices.SortStableFunc(shards, func(a, b Shard) int { return firstSlot(a) - firstSlot(b) })
	return NewLayout(shards)
}

// firstSlot returns the lowest slot of s; s owns at least one.
func firstSlot(s Shard) int {
	m := Slots
	for _, r := range s.Ranges {
		m = min(m, r.First)
	}
	return m
}

// firstLine returns the first line of text that is not blank, trimmed, and its number.
func firstLine(text string) (string, int) {
	n := 0
	for line := range strings.Lines(text) {
		n++
		if t := strings.TrimSpace(line); t != "" {
			return t, n
		}
	}
	return "", 0
}

// parseNodes reads CLUSTER NODES lines: id, address, flags, primary, ping sent, pong
// received, config epoch, link state, then the slots.
func parseNodes(text string) ([]Shard, error) {
	var shards []Shard
	ids := map[string]int{} // node id: line
	n := 0
	for line := range strings.Lines(text) {
		n++
		fields := strings.Fields(line)
		if len(fields) == 0 || fields[0] == "vars" {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: line %d: %s", ErrLayout, n, fmt.Sprintf(format, args...))
		}
		if len(fields) < 8 {
			return nil, bad("%d fields, want at least 8 (id address flags primary ping pong epoch link slots...): not CLUSTER NODES, CLUSTER SHARDS or nodes.conf", len(fields))
		}
		id := fields[0]
		if !isNodeID(id) {
			return nil, bad("node id %.50q is not 40 hex digits", id)
		}
		if l, dup := ids[id]; dup {
			return nil, bad("node %s is also on line %d", id, l)
		}
		ids[id] = n
		var ranges []Range
		for _, f := range fields[8:] {
			if strings.HasPrefix(f, "[") { // a slot being migrated or imported
				continue
			}
			r, err := ParseRange(f)
			if err != nil {
				return nil, bad("node %s: %v", id, strings.TrimPrefix(err.Error(), ErrLayout.Error()+": "))
			}
			ranges = append(ranges, r)
		}
		if !slices.Contains(strings.Split(fields[2], ","), "master") {
			if len(ranges) > 0 {
				return nil, bad("node %s owns slots but is not a primary (flags %s)", id, fields[2])
			}
			continue
		}
		if len(ranges) == 0 {
			continue
		}
		addr, _, _ := strings.Cut(fields[1], "@") // ip:port@cport[,hostname]
		addr, _, _ = strings.Cut(addr, ",")
		shards = append(shards, Shard{Ranges: ranges, NodeID: id, Addr: addr})
	}
	return shards, nil
}

// isNodeID tells whether s is a node id: 40 hex digits.
func isNodeID(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// A token is one value of a CLUSTER SHARDS reply, flattened, with the line it was on.
type token struct {
	s    string
	line int
}

// parseShards reads a flattened CLUSTER SHARDS reply: for each shard "slots", the bounds of
// its ranges in pairs, "nodes", then each node's fields as name and value, the id first.
func parseShards(toks []token) ([]Shard, error) {
	var shards []Shard
	primaries := map[string]int{} // node id: line of its shard
	i := 0
	at := func() string {
		if i < len(toks) {
			return fmt.Sprintf("line %d", toks[i].line)
		}
		return "end of input"
	}
	for i < len(toks) {
		if toks[i].s != "slots" {
			return nil, fmt.Errorf("%w: %s: found %.50q where a shard's \"slots\" should begin", ErrLayout, at(), toks[i].s)
		}
		shardLine := toks[i].line
		i++
		var bounds []int
		for i < len(toks) && toks[i].s != "nodes" {
			if toks[i].s == "" { // an empty slots array, in redis-cli's raw output
				i++
				continue
			}
			n, err := parseSlot(toks[i].s)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ErrLayout, at(), err)
			}
			bounds = append(bounds, n)
			i++
		}
		if i == len(toks) {
			return nil, fmt.Errorf("%w: line %d: shard has no \"nodes\"", ErrLayout, shardLine)
		}
		if len(bounds)%2 != 0 {
			return nil, fmt.Errorf("%w: line %d: shard has %d slot bounds, want pairs", ErrLayout, shardLine, len(bounds))
		}
		var ranges []Range
		for j := 0; j < len(bounds); j += 2 {
			if bounds[j] > bounds[j+1] {
				return nil, fmt.Errorf("%w: line %d: slot range %d-%d ends before it starts", ErrLayout, shardLine, bounds[j], bounds[j+1])
			}
			ranges = append(ranges, Range{bounds[j], bounds[j+1]})
		}
		i++ // "nodes"
		var nodes []map[string]string
		for i < len(toks) && toks[i].s != "slots" {
			if i+1 == len(toks) {
				return nil, fmt.Errorf("%w: %s: node field %.50q has no value", ErrLayout, at(), toks[i].s)
			}
			k, v := toks[i].s, toks[i+1].s
			if len(nodes) == 0 || k == "id" || nodes[len(nodes)-1][k] != "" {
				nodes = append(nodes, map[string]string{})
			}
			nodes[len(nodes)-1][k] = v
			i += 2
		}
		if len(ranges) == 0 {
			continue
		}
		s := Shard{Ranges: ranges}
		for _, nd := range nodes {
			if id := nd["id"]; !isNodeID(id) {
				return nil, fmt.Errorf("%w: line %d: node id %.50q is not 40 hex digits", ErrLayout, shardLine, id)
			}
			if nd["role"] == "master" || nd["role"] == "primary" {
				s.NodeID, s.Addr = nd["id"], nodeAddr(nd)
				break
			}
		}
		if l, dup := primaries[s.NodeID]; dup && s.NodeID != "" {
			return nil, fmt.Errorf("%w: line %d: node %s is also the primary of the shard on line %d", ErrLayout, shardLine, s.NodeID, l)
		}
		primaries[s.NodeID] = shardLine
		shards = append(shards, s)
	}
	return shards, nil
}

// nodeAddr returns the address of a CLUSTER SHARDS node: its ip, else its endpoint, and
// its port, else its TLS port; "" when they do not make an address.
func nodeAddr(nd map[string]string) string {
	host := nd["ip"]
	if host == "" {
		host = nd["endpoint"]
	}
	port := nd["port"]
	if port == "" || port == "0" {
		port = nd["tls-port"]
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || host == "" || strings.ContainsAny(host, " \t\r\n") {
		return ""
	}
	return net.JoinHostPort(host, port)
}

// rawTokens splits redis-cli's raw output into tokens. Over RESP2 it prints one value a
// line, an empty line for an empty string or array; over RESP3 a map's key and value share a
// line, with one space between them. No value of CLUSTER SHARDS holds a space.
func rawTokens(text string) []token {
	var toks []token
	n := 0
	for line := range strings.Lines(text) {
		n++
		for f := range strings.SplitSeq(strings.TrimRight(line, "\r\n"), " ") {
			toks = append(toks, token{f, n})
		}
	}
	return toks
}

// jsonTokens flattens redis-cli's --json output into its scalar values, in order: the keys
// and values of objects (RESP3 maps), the elements of arrays.
func jsonTokens(b []byte) ([]token, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var toks []token
	depth, line, seen := 0, 1, 0
	for {
		t, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if depth != 0 {
				return nil, fmt.Errorf("%w: JSON ends inside an array or object", ErrLayout)
			}
			return toks, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: JSON: %v", ErrLayout, err)
		}
		off := int(dec.InputOffset())
		line += bytes.Count(b[seen:off], []byte("\n"))
		seen = off
		switch v := t.(type) {
		case json.Delim:
			if v == '[' || v == '{' {
				depth++
			} else {
				depth--
			}
		case string:
			toks = append(toks, token{v, line})
		case json.Number:
			toks = append(toks, token{v.String(), line})
		case bool:
			toks = append(toks, token{strconv.FormatBool(v), line})
		case nil:
			toks = append(toks, token{"", line})
		}
	}
}
