package verify

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/record"
)

// streamCheck reads a stream: XLEN; XRANGE of every entry for up to maxFullMembers entries,
// else of memberSample entries picked by Sample, one by one; and XINFO GROUPS, whose groups
// it compares by name, last delivered id, pending entries and consumers.
type streamCheck struct{}

func (streamCheck) queue(ctx context.Context, p redis.Pipeliner, r *record.Record) func() *diff {
	key := string(r.Key)
	length := p.XLen(ctx, key)
	n := uint64(len(r.Members))
	type read struct {
		from uint64 // the first entry the reply holds
		cmd  *redis.Cmd
	}
	var reads []read
	sampled := n > maxFullMembers
	if !sampled {
		reads = append(reads, read{0, p.Do(ctx, "XRANGE", key, "-", "+")})
	} else {
		for j := range Sample(n, memberSample, 0) {
			id := r.Members[j].ID.String()
			reads = append(reads, read{j, p.Do(ctx, "XRANGE", key, id, id)})
		}
	}
	groups := p.XInfoGroups(ctx, key)
	return func() *diff {
		got, err := length.Result()
		switch {
		case err != nil:
			return replyDiff("entries", err, strconv.FormatUint(n, 10))
		case got != int64(n):
			return &diff{"entries", strconv.FormatInt(got, 10), strconv.FormatUint(n, 10)}
		}
		for _, rd := range reads {
			reply, err := rd.cmd.Slice()
			if err != nil {
				return replyDiff("entries", err, "")
			}
			if sampled && len(reply) == 0 {
				return &diff{"entry " + r.Members[rd.from].ID.String(), "missing", "present"}
			}
			for k, e := range reply {
				if d := entryDiff(&r.Members[rd.from+uint64(k)], e); d != nil {
					return d
				}
			}
		}
		return groupsDiff(r.Stream.Groups, groups)
	}
}

// entryDiff compares an entry of an XRANGE reply, [id, [field, value, …]], with want.
func entryDiff(want *record.Member, reply any) *diff {
	what := "entry " + want.ID.String()
	e, ok := reply.([]any)
	if !ok || len(e) != 2 {
		return &diff{what, fmt.Sprintf("reply %v", reply), "an id and fields"}
	}
	if id := fmt.Sprint(e[0]); id != want.ID.String() {
		return &diff{what, "id " + id, "id " + want.ID.String()}
	}
	fields, _ := e[1].([]any)
	var got, exp bytes.Buffer
	for _, f := range fields {
		fmt.Fprintf(&got, "%q ", f)
	}
	for _, f := range want.Fields {
		fmt.Fprintf(&exp, "%q ", f)
	}
	if got.String() != exp.String() {
		return &diff{what, got.String(), exp.String()}
	}
	return nil
}

// groupsDiff compares the reply of XINFO GROUPS with the record's groups.
func groupsDiff(want []record.StreamGroup, cmd *redis.XInfoGroupsCmd) *diff {
	got, err := cmd.Result()
	if err != nil {
		return replyDiff("groups", err, strconv.Itoa(len(want)))
	}
	if len(got) != len(want) {
		return &diff{"groups", strconv.Itoa(len(got)), strconv.Itoa(len(want))}
	}
	sorted := slices.Clone(want)
	slices.SortFunc(sorted, func(a, b record.StreamGroup) int { return bytes.Compare(a.Name, b.Name) })
	slices.SortFunc(got, func(a, b redis.XInfoGroup) int { return bytes.Compare([]byte(a.Name), []byte(b.Name)) })
	for i, g := range sorted {
		what := "group " + quote(string(g.Name))
		h := got[i]
		wantDesc := fmt.Sprintf("last id %s, %d pending, %d consumers", g.LastID, len(g.Pending), len(g.Consumers))
		gotDesc := fmt.Sprintf("last id %s, %d pending, %d consumers", h.LastDeliveredID, h.Pending, h.Consumers)
		switch {
		case h.Name != string(g.Name):
			return &diff{"group", quote(h.Name), quote(string(g.Name))}
		case gotDesc != wantDesc:
			return &diff{what, gotDesc, wantDesc}
		}
	}
	return nil
}
