package jsrt

import (
	"strings"

	"github.com/dop251/goja"
)

// formatter renders values as console.log does.
type formatter interface {
	Inspect(v goja.Value) string
	Format(args []goja.Value) string
}

// TEMPORARY until guest/inspect lands: JSON-ish formatting.
type simpleFormatter struct{ rt *goja.Runtime }

func installFormatter(rt *goja.Runtime) (formatter, error) { return simpleFormatter{rt}, nil }

func (f simpleFormatter) Inspect(v goja.Value) string {
	if obj, ok := v.(*goja.Object); ok {
		if st := obj.Get("stack"); st != nil && !goja.IsUndefined(st) {
			return st.String()
		}
		b, err := obj.MarshalJSON()
		if err == nil {
			return string(b)
		}
	}
	return v.String()
}

func (f simpleFormatter) Format(args []goja.Value) string {
	parts := make([]string, len(args))
	for i, a := range args {
		if s, ok := a.Export().(string); ok {
			parts[i] = s
		} else {
			parts[i] = f.Inspect(a)
		}
	}
	return strings.Join(parts, " ")
}
