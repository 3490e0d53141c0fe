package mcptools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/cordonhq/cordon/describe"
)

// The budget of an upstream tool's input or output schema, checked on its
// JSON before anything compiles or renders it: a schema over it cannot
// stall the start (the engine compiles every input schema when a sandbox
// is made). Real schemas are a few KiB and a dozen levels deep.
const (
	// DefaultMaxSchemaBytes bounds a schema's JSON: 256 KiB.
	DefaultMaxSchemaBytes = 256 << 10
	// DefaultMaxSchemaDepth bounds how deep a schema's JSON nests objects
	// and arrays: 32 levels (the schema itself is level 1).
	DefaultMaxSchemaDepth = 32
)

// annotationKeys are the keywords of a schema whose string values are
// text for people and models: they are made safe ([describe.SafeText]).
var annotationKeys = map[string]bool{"description": true, "title": true, "$comment": true}

// checkSchema returns the JSON of an upstream schema s (nil when there is
// none) if it is a JSON object within the budget b, with the text of its
// annotation keywords made safe; else an error matching ErrSchema.
func checkSchema(s any, b budget) (json.RawMessage, error) {
	if s == nil {
		return nil, nil
	}
	maxBytes, maxDepth := b.bytes, b.depth
	if maxBytes <= 0 {
		maxBytes = DefaultMaxSchemaBytes
	}
	if maxDepth <= 0 {
		maxDepth = DefaultMaxSchemaDepth
	}
	var raw []byte
	switch v := s.(type) {
	case json.RawMessage:
		raw = v
	case []byte:
		raw = v
	default:
		var err error
		if raw, err = json.Marshal(s); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrSchema, err)
		}
	}
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" || len(raw) == 0 {
		return nil, nil
	}
	if len(raw) > maxBytes {
		return nil, fmt.Errorf("%w: %d bytes of JSON, over the budget of %d", ErrSchema, len(raw), maxBytes)
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf("%w: not a JSON object", ErrSchema)
	}
	var out bytes.Buffer
	out.Grow(len(raw))
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := copySchema(dec, &out, 0, maxDepth, false); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSchema, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: trailing data after the schema", ErrSchema)
	}
	return out.Bytes(), nil
}

// copySchema copies one JSON value from dec to out, compact, at nesting
// depth (0 for the top), refusing to nest past maxDepth; text is true when
// the value is that of an annotation keyword.
func copySchema(dec *json.Decoder, out *bytes.Buffer, depth, maxDepth int, text bool) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth+1 > maxDepth {
			return fmt.Errorf("nested deeper than %d levels", maxDepth)
		}
		switch t {
		case '{':
			out.WriteByte('{')
			for i := 0; dec.More(); i++ {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				if i > 0 {
					out.WriteByte(',')
				}
				writeJSON(out, k)
				out.WriteByte(':')
				if err := copySchema(dec, out, depth+1, maxDepth, annotationKeys[k]); err != nil {
					return err
				}
			}
			out.WriteByte('}')
		case '[':
			out.WriteByte('[')
			for i := 0; dec.More(); i++ {
				if i > 0 {
					out.WriteByte(',')
				}
				if err := copySchema(dec, out, depth+1, maxDepth, false); err != nil {
					return err
				}
			}
			out.WriteByte(']')
		}
		_, err := dec.Token() // the closing delimiter
		return err
	case string:
		if text {
			t = unfence(describe.SafeText(t))
		}
		writeJSON(out, t)
	default:
		writeJSON(out, t)
	}
	return nil
}

// writeJSON writes v as JSON, without escaping < > &.
func writeJSON(out *bytes.Buffer, v any) {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	out.Truncate(out.Len() - 1) // the encoder's newline
}
