// Package rego holds cordon's shipped Rego library: package cordon.authz,
// which defines the decision contract the engine queries
// (data.cordon.authz.decision) and which users extend with their own deny
// and ask rules. See authz.rego for the contract.
package rego

import _ "embed"

//go:embed authz.rego
var authz string

// Query is the query the engine evaluates for every tool call.
const Query = "data.cordon.authz.decision"

// Modules returns the library's Rego modules by file name.
func Modules() map[string]string {
	return map[string]string{"cordon/authz.rego": authz}
}
