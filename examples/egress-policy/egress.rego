package cordon.authz

# Hosts no request may reach, whatever the capabilities allow: a paste
# site and a request-capture service, where data would leave for good.
# The host is the one the tool parsed (lower-case, no trailing dot), the
# one the request is made to; every redirect hop is decided again.
blocked_hosts := {"pastebin.com", "webhook.site"}

deny contains sprintf("%s: host %s is blocked by the security team", [input.method, input.params.host]) if {
	input.method == "http/fetch"
	some blocked in blocked_hosts
	blocked_host(input.params.host, blocked)
}

blocked_host(host, blocked) if host == blocked

blocked_host(host, blocked) if endswith(host, concat("", [".", blocked]))
