// Calls that must type-check against the declarations of edge.json.
await lookup({ q: "x" });
await lookup.byId({ id: 1 });
await lookup_byId({ id: 2 });
await search_all();
await _1password_items_get({ item: "login" });
await ns.import();
await ns["class-of"]();
await ns["v2:beta"].run({ anything: 1 });
await ns_v2_beta_run();
await ns_class_of();
await kv.store.put({ key: "k", value: { any: [1, "thing"] }, ttl: 60 });
await kv_store_put({ key: "k", value: null });
const walked = await tree.walk({ name: "a", children: [{ name: "b", children: [] }], owner: { name: "x", team: { lead: { name: "y" } } } });
console.log(walked.visited + 1);
await shapes.draw({
  point: [1, 2],
  kind: { shape: "circle", r: 1 },
  legacy_point: [1, 2, "a", "b"],
  headers: { "x-trace": "1" },
  "content-type": "text/plain",
  "2fa": true,
  "with space": "ok",
  style: { fill: "#ffffff", width: 2 },
  tag: "a",
  mixed: null,
  legacy_nullable: null,
  opt_in: { anything: [] },
});
await broken.schema({ whatever: 1 });
await broken_schema();
await pair.of({ die: { sides: 6 } });
await pair_of({ die: { sides: 20 } });
await pair_of.dice();
