# The cordon decision contract.
#
# For every tool call a script makes, the engine evaluates
# data.cordon.authz.decision with this input:
#
#   input.method             "stripe/charges/create"
#   input.params             the call's JSON object
#   input.calls              {method: calls allowed or approved so far in the
#                            counter scope (the session by default; see
#                            counters in the config), and asks awaiting an
#                            answer}
#   input.capability_calls   {capability index (string): calls it was charged for}
#   input.session            {"id": ..., "labels": {...}, "principal": ...,
#                            "flow": {"labels": {label: calls allowed to tools
#                            with that label in the counter scope}}}
#   input.language           "js" or "sh": the interpreter that made the call
#   input.tool               {"server": ..., "labels": [...], "annotations":
#                            {"readOnlyHint": ..., ...}}: what the host says of
#                            the tool (an MCP server's tool, a labelled tool);
#                            absent for other tools
#
# and expects an object:
#
#   {"allow": bool, "ask": bool, "reasons": [string], "capability": number}
#
# A call runs only when allow is true. When ask is true the call waits for
# the host's approval. Anything else denies, including an evaluation error or
# an undefined decision: the engine fails closed.
#
# Capabilities compiled from the DSL live in package cordon.capabilities
# (see policy/compile). A call is permitted when some capability allows it
# (the first such capability, in order, is charged) or when a rule of yours
# adds to permit. It is then allowed unless a deny or ask rule fires.
#
# Your own rules join this package:
#
#   package cordon.authz
#
#   permit contains "read-only tools are always fine" if {
#       startswith(input.method, "db/read_")
#   }
#
#   # time.now_ns is off unless the config allows it (allow_builtins).
#   deny contains "refunds are disabled on weekends" if {
#       input.method == "stripe/refunds/create"
#       time.weekday(time.now_ns()) in {"Saturday", "Sunday"}
#   }
#
#   ask contains "charges above 1000 need approval" if {
#       input.method == "stripe/charges/create"
#       input.params.amount > 1000
#   }
#
# A deny always wins over ask, and ask over allow.
package cordon.authz

import data.cordon.capabilities

# permit holds what grants the call: the capabilities that allow it, and
# whatever user modules add.
permit contains sprintf("capability #%d %q", [i, capabilities.capabilities[i].method]) if {
	some i in eligible
}

# gate is the first capability that asks, has max_calls, and whose pattern
# and constraints the call meets. A call that an asking capability would
# take must be approved under it: no later capability may allow it, not
# even once that capability's max_calls is used up (an ask cannot be worn
# out by refused calls).
gate := min(capabilities.gates) if count(capabilities.gates) > 0

# eligible holds the capabilities that allow the call and come no later
# than the gate, if there is one.
eligible contains i if {
	some i in capabilities.allowed
	not _after_gate(i)
}

_after_gate(i) if i > gate

# A gated call that no earlier capability allows is denied, whatever else
# permits it.
deny contains sprintf("capability #%d %q requires approval and its max_calls %d is used up", [gate, c.method, c.max_calls]) if {
	count(eligible) == 0
	c := capabilities.capabilities[gate]
}

# deny holds the reasons to refuse the call. A call nothing permits is denied
# with the capabilities' explanation; user modules add more reasons.
deny contains reason if {
	count(permit) == 0
	some reason in capability_failures
}

# capability_failures explains why no capability allowed the call.
capability_failures contains sprintf("no capability allows method %q", [input.method]) if {
	count(capabilities.matched) == 0
}

capability_failures contains reason if {
	count(capabilities.matched) > 0
	some reason in capabilities.violations
}

# A matched capability whose constraints hold but whose violations set is
# empty cannot fail; this closes the gap if a compiled module ever disagrees.
capability_failures contains sprintf("no capability allows this call to %q", [input.method]) if {
	count(capabilities.matched) > 0
	count(capabilities.violations) == 0
}

# capability is the index of the capability charged for the call: the first
# one, in order, that allows it and is not past the gate. It is -1 when
# none does.
default capability := -1

capability := min(eligible) if count(eligible) > 0

# ask holds the reasons the call needs approval. A capability declared with
# ask: true is the first source; user modules add more.
ask contains sprintf("capability #%d %q requires approval", [capability, capabilities.capabilities[capability].method]) if {
	capability >= 0
	capabilities.capabilities[capability].ask
}

default allow := false

allow if {
	count(deny) == 0
	count(ask) == 0
}

default asking := false

asking if {
	count(deny) == 0
	count(ask) > 0
}

# reasons: the deny reasons when denied, the ask reasons when asking.
reasons := sort([r | some r in deny]) if count(deny) > 0

else := sort([r | some r in ask])

decision := {
	"allow": allow,
	"ask": asking,
	"reasons": reasons,
	"capability": capability,
}
