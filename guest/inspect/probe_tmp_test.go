package inspect

import (
	"testing"
)

func TestProbeTmp(t *testing.T) {
	rt, funcs := newTestRuntime(t)
	rt.Set("util", funcs.Exports())
	rt.Set("gofn", func() {})
	v, err := rt.RunString(`
	const N = 5000;
	const res = [];
	function time(label, f) { const t = Date.now(); for (let i = 0; i < N; i++) f(); res.push(label + ': ' + ((Date.now() - t) * 1000 / N).toFixed(2) + 'us'); }
	const small = { id: 42, name: 'Alice', email: 'alice@example.com', tags: ['admin', 'dev'], active: true };
	const uncurryThis = Function.prototype.bind.bind(Function.prototype.call);
	const slice = uncurryThis(String.prototype.slice);
	const re = /^[a-z]+$/;
	time('empty fn', () => {});
	time('loop 100', () => { let x = 0; for (let j = 0; j < 100; j++) x += j; });
	time('obj literal 4', () => ({a:1,b:2,c:3,d:4}));
	time('obj literal 17', () => ({a:1,b:2,c:3,d:4,e:5,f:6,g:7,h:8,i:9,j:10,k:11,l:12,m:13,n:14,o:15,p:16,q:17}));
	time('array literal 3', () => [1, 2, 3]);
	time('template', () => ` + "`${small.id} x ${small.name}`" + `);
	time('gopd', () => Object.getOwnPropertyDescriptor(small, 'id'));
	time('Object.keys', () => Object.keys(small));
	time('native slice', () => 'abcdef'.slice(1, 3));
	time('uncurried slice', () => slice('abcdef', 1, 3));
	time('regexp test', () => re.test('abc'));
	time('go fn', () => gofn());
	time('try/catch throw', () => { try { throw 1 } catch {} });
	time('inspect 1', () => util.inspect(1));
	time('inspect {}', () => util.inspect({}));
	time('inspect small', () => util.inspect(small));
	res.join('\n')`)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + v.String())
}
