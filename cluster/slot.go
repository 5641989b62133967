package cluster

import "bytes"

// Slots is the number of hash slots of a Redis Cluster.
const Slots = 16384

// crc16Table is CRC16/XMODEM (polynomial 0x1021, initial value 0, no reflection, no final
// xor), the checksum Redis Cluster hashes keys with, one byte at a time.
var crc16Table = func() (t [256]uint16) {
	for i := range t {
		crc := uint16(i) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
		t[i] = crc
	}
	return t
}()

// crc16 returns the CRC16/XMODEM of b.
func crc16(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc = crc<<8 ^ crc16Table[byte(crc>>8)^c]
	}
	return crc
}

// HashTag returns the part of key that Redis Cluster hashes: the text between the first '{'
// and the first '}' after it, when that text is not empty; otherwise the whole key. So
// "{user1000}.following" hashes "user1000", while "foo{}{bar}" hashes the whole key and
// "foo{{bar}}zap" hashes "{bar".
func HashTag(key []byte) []byte {
	open := bytes.IndexByte(key, '{')
	if open < 0 {
		return key
	}
	n := bytes.IndexByte(key[open+1:], '}')
	if n <= 0 { // no '}', or nothing between the braces
		return key
	}
	return key[open+1 : open+1+n]
}

// Slot returns the hash slot of key, 0 to Slots-1, as CLUSTER KEYSLOT computes it.
func Slot(key []byte) int {
	return int(crc16(HashTag(key)) & (Slots - 1))
}

// KeySlot is Slot for a key held in a string.
func KeySlot(key string) int { return Slot([]byte(key)) }
