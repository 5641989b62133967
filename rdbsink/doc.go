// Package rdbsink writes records into RDB files and DUMP payloads: its Writer and
// PayloadWriter are record.Sinks over the writers of package encoder. It is the one place
// that maps the record vocabulary (package record: a Header whose type is a value, Members,
// a StreamTail) onto the writer's own calls (WriteString; BeginHash, AddField, End; ...),
// so that the writer uses the standard library only and the vocabulary imports no writer.
//
// It dispatches each key on its Header's type, converts counts, stream ids and consumer
// groups, checks what only the record vocabulary knows (a function library's first line,
// an unknown type), and maps the writer's errors onto the record ones: an error wrapping
// encoder.ErrDuplicateKey also wraps record.ErrDuplicateKey, and names it (see Error).
// Needs and Check ask the writer's capability table whether a file takes a key.
package rdbsink
