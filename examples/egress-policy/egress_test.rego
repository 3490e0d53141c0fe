# cordon policy test --config examples/egress-policy/config.yaml examples/egress-policy
package egress_test

import data.cordon.authz

# fetch is the params the fetch tool's Prepare makes of a request.
fetch(method, host, path) := {
	"method": "http/fetch",
	"params": {
		"method": method,
		"url": sprintf("https://%s%s", [host, path]),
		"scheme": "https",
		"host": host,
		"port": 443,
		"path": path,
		"query": {},
		"headers": {},
		"body_size": 0,
		"redirect": "follow",
	},
	"calls": {},
	"capability_calls": {},
	"session": {"id": "test", "labels": {}},
	"language": "js",
}

test_get_acme_repository_allowed if {
	authz.decision.allow with input as fetch("GET", "api.github.com", "/repos/acme/widgets")
}

test_head_acme_repository_allowed if {
	authz.decision.allow with input as fetch("HEAD", "api.github.com", "/repos/acme/widgets/issues")
}

test_other_organization_denied if {
	d := authz.decision with input as fetch("GET", "api.github.com", "/repos/other/widgets")
	not d.allow
	not d.ask
}

test_other_host_denied if {
	d := authz.decision with input as fetch("GET", "api.github.com.evil.example", "/repos/acme/widgets")
	not d.allow
	not d.ask
}

test_plain_http_denied if {
	d := authz.decision with input as object.union(fetch("GET", "api.github.com", "/repos/acme/widgets"), {"params": {"scheme": "http", "port": 80}})
	not d.allow
	not d.ask
}

test_delete_denied if {
	d := authz.decision with input as fetch("DELETE", "api.github.com", "/repos/acme/widgets")
	not d.allow
	not d.ask
}

test_post_asks if {
	d := authz.decision with input as fetch("POST", "api.example.com", "/v1/things")
	not d.allow
	d.ask
}

test_blocked_host_denied_even_for_post if {
	d := authz.decision with input as fetch("POST", "pastebin.com", "/api/api_post.php")
	not d.allow
	not d.ask
	d.reasons == ["http/fetch: host pastebin.com is blocked by the security team"]
}

test_blocked_subdomain_denied if {
	d := authz.decision with input as fetch("POST", "eu.webhook.site", "/x")
	not d.allow
	not d.ask
}
