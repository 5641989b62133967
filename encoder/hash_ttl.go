package encoder

import "errors"

// BeginHashWithFieldTTL opens a hash of n fields some of which expire: minFieldExpireAtMS is
// the smallest field expiry (absolute Unix ms). Fields follow with AddFieldWithTTL. It needs
// RDB 12 (Redis 7.4+).
func (w *Writer) BeginHashWithFieldTTL(key []byte, n uint64, expireAtMS, minFieldExpireAtMS int64) error {
	return w.fail(errors.Join(ErrUnsupported, errors.New("hash field TTLs are not written yet")))
}

// AddFieldWithTTL adds a field, its value and its expiry (absolute Unix ms, 0 for none) to
// the hash opened by BeginHashWithFieldTTL.
func (w *Writer) AddFieldWithTTL(field, value []byte, expireAtMS int64) error {
	return w.fail(ErrNoCollection)
}

func (w *Writer) endHashTTL() error { return nil }
