package decoder

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// Redis 8.6's per-key metadata: opcode 243 (RDB_OPCODE_KEY_META) before a key's type byte,
// in a REDIS file of RDB 13 or later, laid out as rdbSaveKeyMetadata and rdbLoadKeyMetadata
// (src/keymeta.c) write and read it: a length (the number of classes), then per class a
// 32-bit class spec (4 bytes, little-endian as written on the x86/ARM hosts Redis runs on),
// the class's value as a module's rdb_save callback writes it (the opcode stream of a module
// value), and a length 0 (RDB_MODULE_OPCODE_EOF). Only module classes are saved: the key's
// expiry stays in the expiry opcodes, and its LRU/LFU in 248/249, so there is nothing of
// those to apply here. No target before Redis 8.6 holds a module's key metadata, so a key
// with some is refused naming the classes, or, under Options.DropNewer, read without them.

// keyMetaMaxClasses bounds the number of classes (KEY_META_MAX_NUM_MODULES: module classes
// take the metadata slots 1 to 7).
const keyMetaMaxClasses = 7

// keyMetaCharset is the alphabet of class names, 6 bits a character (keyMetaCharSet).
const keyMetaCharset = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

// KeyMetaClass decodes a 32-bit class spec as keyMetaClassDecode does: from the top, four
// 6-bit characters of the name, a 5-bit version, 3 bits of flags.
func KeyMetaClass(spec uint32) (name string, version int, flags uint8) {
	flags = uint8(spec & 7)
	version = int(spec >> 3 & 0x1f)
	var b [4]byte
	v := spec >> 8
	for i := 3; i >= 0; i-- {
		b[i] = keyMetaCharset[v&0x3f]
		v >>= 6
	}
	return string(b[:]), version, flags
}

// readKeyMeta reads opcode 243's body and keeps the class names for the key that follows.
func (rd *Reader) readKeyMeta() error {
	n, err := rd.in.plainLength()
	if err != nil {
		return err
	}
	if n == 0 || n > keyMetaMaxClasses {
		return fmt.Errorf("%w: key metadata of %d classes (Redis writes 1 to %d)", ErrCorrupt, n, keyMetaMaxClasses)
	}
	if rd.keyMeta != nil {
		return fmt.Errorf("%w: key metadata twice before one key", ErrCorrupt)
	}
	names := make([]string, 0, n)
	for range n {
		b, err := rd.in.next(4)
		if err != nil {
			return err
		}
		name, ver, _ := KeyMetaClass(binary.LittleEndian.Uint32(b))
		full := fmt.Sprintf("META-%s (version %d)", name, ver)
		// The value: a module's opcode stream through its EOF (moduleBody checks each
		// opcode, as rdbLoadCheckModuleValue does).
		if rd.a, err = rd.moduleBody(rd.a[:0], keyMetaModuleID(name, ver)); err != nil {
			return fmt.Errorf("key metadata %s: %w", full, err)
		}
		names = append(names, full)
	}
	rd.keyMeta = names
	return nil
}

// keyMetaModuleID is the module-style id of a class (keyMetaClassEncode's entityId): the
// name "META-" + name in 6-bit characters, shifted left by 10, OR'd with the version. It
// names the class in moduleBody's errors (record.ModuleName, whose alphabet ends "-_"
// where the class names' ends "_-").
func keyMetaModuleID(name string, ver int) uint64 {
	const moduleCharset = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	var id uint64
	for _, c := range "META-" + name {
		id = id<<6 | uint64(strings.IndexRune(moduleCharset, c))
	}
	return id<<10 | uint64(ver)
}

// takeKeyMeta applies the key metadata read before the key being read: an error naming
// the classes, or, under DropNewer, each class counted as dropped.
func (rd *Reader) takeKeyMeta() error {
	names := rd.keyMeta
	rd.keyMeta = nil
	if !rd.opts.DropNewer {
		return fmt.Errorf("%w: module key metadata %s (opcode 243, Redis 8.6); no target before it holds it: drop it knowingly with --drop-newer", ErrNewerType, strings.Join(names, ", "))
	}
	for _, n := range names {
		rd.dropNewer("key metadata " + n[:9])
	}
	return nil
}

// dropNewer counts one part of a record dropped under DropNewer.
func (rd *Reader) dropNewer(what string) {
	if rd.stats.NewerDropped == nil {
		rd.stats.NewerDropped = map[string]uint64{}
	}
	rd.stats.NewerDropped[what]++
}
