package abi

// FetchRequest is the params object that JavaScript's fetch and the shell's
// curl and wget send to the sandbox's fetch tool (ToolInfo.Fetch): the
// request as the script wrote it. The host parses it once (package egress)
// into the form the policy decides on and the request is made from; the
// guest parses nothing.
type FetchRequest struct {
	// URL is the absolute URL as the script wrote it.
	URL string `json:"url"`
	// Method is the HTTP method; empty means GET.
	Method string `json:"method,omitempty"`
	// Headers are the request headers in the order given, names as
	// written; the host lower-cases the names.
	Headers [][2]string `json:"headers,omitempty"`
	// Body is a body that is valid UTF-8; BodyBase64 is any other body,
	// in standard base64. At most one is set.
	Body       string `json:"body,omitempty"`
	BodyBase64 string `json:"body_base64,omitempty"`
	// Redirect is what to do with a redirect: "follow" (the default, each
	// hop decided by the policy again), "manual" (return the 3xx response)
	// or "error" (fail).
	Redirect string `json:"redirect,omitempty"`
}

// FetchResponse is the fetch tool's result.
type FetchResponse struct {
	Status     int    `json:"status"`
	StatusText string `json:"status_text"`
	// URL is the URL of the response, after the redirects followed.
	URL        string `json:"url"`
	Redirected bool   `json:"redirected"`
	// Headers are the response headers in the order received, names
	// lower-cased.
	Headers [][2]string `json:"headers"`
	// Body is a body that is valid UTF-8; BodyBase64 is any other body.
	Body       string `json:"body,omitempty"`
	BodyBase64 string `json:"body_base64,omitempty"`
}
