package jq

import (
	"encoding/base32"
	"encoding/base64"
	"fmt"
	"math"
	"strings"
)

// format implements @name (jq 1.7's f_format), and gojq's @base32,
// @base32d and @urid, which later jq versions have.
func (k *keyOrder) format(v, f any) any {
	name, ok := f.(string)
	if !ok {
		return typeError(f, "is not a valid format")
	}
	tostring := func(v any) string {
		if s, ok := v.(string); ok {
			return s
		}
		return k.compact(v)
	}
	switch name {
	case "json":
		return k.compact(v)
	case "text":
		return tostring(v)
	case "csv", "tsv":
		arr, ok := v.([]any)
		if !ok {
			return k.typeError(v, "cannot be "+name+"-formatted, only array")
		}
		var sb strings.Builder
		for i, x := range arr {
			if i > 0 {
				if name == "csv" {
					sb.WriteByte(',')
				} else {
					sb.WriteByte('\t')
				}
			}
			switch x := x.(type) {
			case nil:
			case bool:
				sb.WriteString(k.compact(x))
			case string:
				if name == "csv" {
					sb.WriteByte('"')
					sb.WriteString(strings.ReplaceAll(x, `"`, `""`))
					sb.WriteByte('"')
				} else {
					sb.WriteString(jqTSVEscaper.Replace(x))
				}
			default:
				if f, ok := jqFloat(x); ok {
					if !math.IsNaN(f) {
						sb.WriteString(k.compact(x))
					}
					continue
				}
				return k.typeError(x, "is not valid in a csv row")
			}
		}
		return sb.String()
	case "html":
		return jqHTMLEscaper.Replace(tostring(v))
	case "uri", "urid":
		s := tostring(v)
		if name == "urid" {
			return jqURIDecode(s)
		}
		var sb strings.Builder
		for i := 0; i < len(s); i++ {
			c := s[i]
			if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
				sb.WriteByte(c)
			} else {
				fmt.Fprintf(&sb, "%%%02X", c)
			}
		}
		return sb.String()
	case "sh":
		arr, ok := v.([]any)
		if !ok {
			arr = []any{v}
		}
		var sb strings.Builder
		for i, x := range arr {
			if i > 0 {
				sb.WriteByte(' ')
			}
			switch x := x.(type) {
			case string:
				sb.WriteByte('\'')
				sb.WriteString(strings.ReplaceAll(x, "'", `'\''`))
				sb.WriteByte('\'')
			case []any, map[string]any:
				return k.typeError(x, "can not be escaped for shell")
			default:
				sb.WriteString(k.compact(x))
			}
		}
		return sb.String()
	case "base64":
		return base64.StdEncoding.EncodeToString([]byte(tostring(v)))
	case "base64d":
		return jqBase64Decode(tostring(v))
	case "base32":
		return base32.StdEncoding.EncodeToString([]byte(tostring(v)))
	case "base32d":
		s := tostring(v)
		b, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(strings.TrimRight(s, "="))
		if err != nil {
			return typeError(s, "is not valid base32 data")
		}
		return strings.ToValidUTF8(string(b), "\ufffd")
	}
	return &jqError{name + " is not a valid format"}
}

// typeError is jq's type_error with objects in key order.
func (k *keyOrder) typeError(v any, msg string) error {
	return &jqError{k.preview(v) + " " + msg}
}

var (
	jqTSVEscaper  = strings.NewReplacer("\t", `\t`, "\r", `\r`, "\n", `\n`, `\`, `\\`)
	jqHTMLEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "'", "&apos;", `"`, "&quot;")
)

// jqBase64Decode decodes base64 like jq 1.7: up to the first '=', with
// a lone trailing character an error.
func jqBase64Decode(s string) any {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var out []byte
	var code uint32
	n := 0
	for i := 0; i < len(s) && s[i] != '='; i++ {
		d := strings.IndexByte(alphabet, s[i])
		if d < 0 {
			return typeError(s, "is not valid base64 data")
		}
		code = code<<6 | uint32(d)
		n++
		if n == 4 {
			out = append(out, byte(code>>16), byte(code>>8), byte(code))
			n, code = 0, 0
		}
	}
	switch n {
	case 3:
		out = append(out, byte(code>>10), byte(code>>2))
	case 2:
		out = append(out, byte(code>>4))
	case 1:
		return typeError(s, "trailing base64 byte found")
	}
	return strings.ToValidUTF8(string(out), "\ufffd")
}

// jqURIDecode decodes %XX escapes (jq 1.8's @urid).
func jqURIDecode(s string) any {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s)+0 && i+2 <= len(s)-1 {
			var b byte
			if _, err := fmt.Sscanf(s[i+1:i+3], "%02X", &b); err == nil {
				sb.WriteByte(b)
				i += 2
				continue
			}
			return typeError(s, "is not a valid uri encoding")
		}
		sb.WriteByte(s[i])
	}
	return strings.ToValidUTF8(sb.String(), "\ufffd")
}
