package decoder

import "fmt"

// preGAFunction reads a library in the layout of Redis 7.0's release candidates (opcode
// 246, RDB_OPCODE_FUNCTION): its name, its engine's name, a length that says whether a
// description follows, the description, and the code. It returns the library as opcode
// 245 holds it, made as Redis 7.0's rdbFunctionLoad makes it ("#!ENGINE name=NAME\n"
// before the code; the description dropped), so every target that holds functions
// carries it. Redis 7.0.x loads this layout; 7.2 and later refuse it ("Pre-release function
// format not supported"), and load the library as rewritten here.
func (rd *Reader) preGAFunction() ([]byte, error) {
	in := rd.in
	name, err := in.str(nil, &rd.lzf)
	if err != nil {
		return nil, err
	}
	engine, err := in.str(nil, &rd.lzf)
	if err != nil {
		return nil, err
	}
	hasDesc, err := in.plainLength()
	if err != nil {
		return nil, err
	}
	if hasDesc != 0 {
		if rd.b, err = in.str(rd.b, &rd.lzf); err != nil {
			return nil, err
		}
	}
	code, err := in.str(nil, &rd.lzf)
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(rd.a[:0], "#!%s name=%s\n%s", engine, name, code), nil
}
