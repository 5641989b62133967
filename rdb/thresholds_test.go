package rdb

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestThresholdSettings: every field of Thresholds is in ThresholdSettings once, under the
// name of its JSON tag (the Redis setting), and Of gives that field.
func TestThresholdSettings(t *testing.T) {
	typ := reflect.TypeFor[Thresholds]()
	if len(ThresholdSettings) != typ.NumField() {
		t.Fatalf("%d settings for %d fields", len(ThresholdSettings), typ.NumField())
	}
	var th Thresholds
	for i, s := range ThresholdSettings {
		*s.Of(&th) = i + 1
	}
	v := reflect.ValueOf(th)
	for i := range typ.NumField() {
		name := typ.Field(i).Tag.Get("json")
		got := int(v.Field(i).Int())
		if got < 1 || ThresholdSettings[got-1].Name != name {
			t.Errorf("field %s (%s): set by setting %d", typ.Field(i).Name, name, got-1)
		}
	}
}

// TestThresholdsValidate: a value out of a setting's range is an error naming the setting
// and its range; the bounds themselves are accepted.
func TestThresholdsValidate(t *testing.T) {
	for _, s := range ThresholdSettings {
		for _, v := range []int{s.Min, s.Max} {
			th := DefaultThresholds()
			*s.Of(&th) = v
			if err := th.Validate(); err != nil {
				t.Errorf("%s %d: %v", s.Name, v, err)
			}
		}
		th := DefaultThresholds()
		*s.Of(&th) = s.Max + 1
		if err := th.Validate(); !errors.Is(err, ErrInvalidOption) || !strings.Contains(err.Error(), s.Name) {
			t.Errorf("%s %d: got %v", s.Name, s.Max+1, err)
		}
	}
}
