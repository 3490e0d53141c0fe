package mcpserver_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/mcpserver"
	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"
)

func TestStaticToken(t *testing.T) {
	const tok = "0123456789abcdef-ok"
	v, err := mcpserver.StaticToken(tok, "ci")
	if err != nil {
		t.Fatal(err)
	}
	ti, err := v(context.Background(), tok, nil)
	if err != nil || ti.UserID != "ci" || !ti.Expiration.IsZero() {
		t.Fatalf("right token: %+v, %v", ti, err)
	}
	for _, bad := range []string{"", tok[:len(tok)-1], tok + "x", strings.ToUpper(tok), "0123456789abcdef-oK", tok + tok} {
		if ti, err := v(context.Background(), bad, nil); err == nil || ti != nil || !errors.Is(err, auth.ErrInvalidToken) {
			t.Errorf("%q: %+v, %v", bad, ti, err)
		}
	}
	for _, c := range []struct{ token, principal, want string }{
		{"short", "ci", "at least 16"},
		{strings.Repeat("a", mcpserver.MaxTokenLength+1), "ci", "at most"},
		{"0123456789abcdef ghij", "ci", `" "`},
		{"0123456789abcdef\nghij", "ci", `"\n"`},
		{"0123456789abcdef=ghij", "ci", `"="`},
		{"================", "ci", "only padding"},
		{tok, "", "principal is empty"},
		{tok, "a\nb", "control character"},
		{tok, "a\u2028b", "control character"},
		{tok, strings.Repeat("p", mcpserver.MaxPrincipalLength+1), "at most 256"},
	} {
		if _, err := mcpserver.StaticToken(c.token, c.principal); err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "mcpserver: ") {
			t.Errorf("StaticToken(%.20q, %q) = %v, want %q", c.token, c.principal, err, c.want)
		}
	}
	// Every b64token character, and padding, is accepted.
	if _, err := mcpserver.StaticToken("aZ09-._~+/aZ09-._~+/==", "ci"); err != nil {
		t.Error(err)
	}
}

func TestGenerateToken(t *testing.T) {
	a, err := mcpserver.GenerateToken()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := mcpserver.GenerateToken()
	if len(a) != 43 || a == b || mcpserver.CheckToken(a) != nil {
		t.Fatalf("%q %q", a, b)
	}
}

// TestTokenCompareIsConstantTime reads the static-token verifier's source:
// the token is compared by tokenEqual, which compares SHA-256 digests with
// subtle.ConstantTimeCompare, and never with == or != or a compare
// function that returns at the first difference.
func TestTokenCompareIsConstantTime(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "auth.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			funcs[fd.Name.Name] = fd
		}
	}
	calls := func(n ast.Node) map[string]bool {
		out := map[string]bool{}
		ast.Inspect(n, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				switch fn := c.Fun.(type) {
				case *ast.Ident:
					out[fn.Name] = true
				case *ast.SelectorExpr:
					if x, ok := fn.X.(*ast.Ident); ok {
						out[x.Name+"."+fn.Sel.Name] = true
					}
				}
			}
			return true
		})
		return out
	}
	eq, st := funcs["tokenEqual"], funcs["StaticToken"]
	if eq == nil || st == nil {
		t.Fatal("auth.go has no tokenEqual or StaticToken")
	}
	if c := calls(eq); !c["subtle.ConstantTimeCompare"] || !c["sha256.Sum256"] {
		t.Errorf("tokenEqual does not compare digests with subtle.ConstantTimeCompare: calls %v", c)
	}
	c := calls(st)
	if !c["tokenEqual"] {
		t.Errorf("StaticToken's verifier does not call tokenEqual: calls %v", c)
	}
	for _, bad := range []string{"bytes.Equal", "strings.Compare", "strings.EqualFold", "bytes.Compare", "reflect.DeepEqual"} {
		if c[bad] {
			t.Errorf("StaticToken calls %s", bad)
		}
	}
	for _, fd := range []*ast.FuncDecl{eq, st} {
		ast.Inspect(fd, func(n ast.Node) bool {
			if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
				for _, side := range []ast.Expr{b.X, b.Y} {
					if id, ok := side.(*ast.Ident); ok && (id.Name == "got" || id.Name == "want" || id.Name == "token" || id.Name == "h") {
						t.Errorf("%s: %s compares the token with %s", fset.Position(b.Pos()), fd.Name.Name, b.Op)
					}
				}
			}
			return true
		})
	}
}

// keys of each kind JWTVerifier takes, made once.
var (
	ecKey, _        = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ec2Key, _       = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	edPub, edKey, _ = ed25519.GenerateKey(rand.Reader)
	rsaKey, _       = rsa.GenerateKey(rand.Reader, 2048)
)

const (
	issuer   = "https://issuer.example"
	audience = "https://cordon.example/mcp"
)

func sign(t *testing.T, m jwt.SigningMethod, key any, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(m, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestJWTVerifier(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	v, err := mcpserver.JWTVerifier(mcpserver.JWTConfig{
		Keys:     []crypto.PublicKey{&ecKey.PublicKey, edPub, &rsaKey.PublicKey},
		Issuer:   issuer,
		Audience: audience,
		Leeway:   30 * time.Second,
		Now:      func() time.Time { return now },
	})
	if err != nil {
		t.Fatal(err)
	}
	claims := func(edit func(jwt.MapClaims)) jwt.MapClaims {
		c := jwt.MapClaims{"iss": issuer, "aud": audience, "sub": "alice", "exp": now.Add(time.Hour).Unix(), "iat": now.Add(-time.Minute).Unix()}
		if edit != nil {
			edit(c)
		}
		return c
	}
	for name, tok := range map[string]string{
		"ES256":        sign(t, jwt.SigningMethodES256, ecKey, claims(nil)),
		"EdDSA":        sign(t, jwt.SigningMethodEdDSA, edKey, claims(nil)),
		"RS256":        sign(t, jwt.SigningMethodRS256, rsaKey, claims(nil)),
		"PS256":        sign(t, jwt.SigningMethodPS256, rsaKey, claims(nil)),
		"aud list":     sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { c["aud"] = []string{"other", audience} })),
		"within skew":  sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { c["exp"] = now.Add(-10 * time.Second).Unix() })),
		"nbf reached":  sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { c["nbf"] = now.Add(-time.Second).Unix() })),
		"other claims": sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { c["scope"] = []string{"a"}; c["name"] = "Alice" })),
	} {
		ti, err := v(context.Background(), tok, nil)
		if err != nil || ti.UserID != "alice" || ti.Expiration.IsZero() {
			t.Errorf("%s: %+v, %v", name, ti, err)
		}
	}

	noneTok, _ := jwt.NewWithClaims(jwt.SigningMethodNone, claims(nil)).SignedString(jwt.UnsafeAllowNoneSignatureType)
	der, _ := x509.MarshalPKIXPublicKey(&ecKey.PublicKey)
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	for name, c := range map[string]struct{ token, want string }{
		"wrong issuer":   {sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { c["iss"] = "https://evil.example" })), "issuer"},
		"no issuer":      {sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { delete(c, "iss") })), "iss claim"},
		"wrong audience": {sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { c["aud"] = "https://other.example/mcp" })), "audience"},
		"no audience":    {sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { delete(c, "aud") })), "aud claim"},
		"expired":        {sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { c["exp"] = now.Add(-time.Minute).Unix() })), "expired"},
		"no expiry":      {sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { delete(c, "exp") })), "exp"},
		"not yet valid":  {sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { c["nbf"] = now.Add(time.Hour).Unix() })), "not valid yet"},
		"issued later":   {sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { c["iat"] = now.Add(time.Hour).Unix() })), "issued"},
		"no subject":     {sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { delete(c, "sub") })), "sub"},
		"bad subject":    {sign(t, jwt.SigningMethodES256, ecKey, claims(func(c jwt.MapClaims) { c["sub"] = "alice\nadmin" })), "sub"},
		"other key":      {sign(t, jwt.SigningMethodES256, ec2Key, claims(nil)), "signature"},
		"alg none":       {noneTok, "signing method"},
		"HMAC confusion": {sign(t, jwt.SigningMethodHS256, pemKey, claims(nil)), "signing method"},
		"HMAC with DER":  {sign(t, jwt.SigningMethodHS256, der, claims(nil)), "signing method"},
		"curve mismatch": {sign(t, jwt.SigningMethodES384, mustEC(t, elliptic.P384()), claims(nil)), "signing method"},
		"garbage":        {"not.a.jwt", "malformed"},
		"too long":       {strings.Repeat("a", mcpserver.MaxTokenLength+1), "at most"},
	} {
		ti, err := v(context.Background(), c.token, nil)
		if err == nil || ti != nil || !errors.Is(err, auth.ErrInvalidToken) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %+v, %v (want %q)", name, ti, err, c.want)
		}
	}
}

func mustEC(t *testing.T, c elliptic.Curve) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(c, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestJWTVerifierConfig(t *testing.T) {
	small, _ := rsa.GenerateKey(rand.Reader, 1024)
	ok := mcpserver.JWTConfig{Keys: []crypto.PublicKey{&ecKey.PublicKey}, Issuer: issuer, Audience: audience}
	for want, edit := range map[string]func(*mcpserver.JWTConfig){
		"at least one public key": func(c *mcpserver.JWTConfig) { c.Keys = nil },
		"needs an issuer":         func(c *mcpserver.JWTConfig) { c.Issuer = "" },
		"needs an audience":       func(c *mcpserver.JWTConfig) { c.Audience = "" },
		"negative":                func(c *mcpserver.JWTConfig) { c.Leeway = -time.Second },
		"2048 bits":               func(c *mcpserver.JWTConfig) { c.Keys = []crypto.PublicKey{&small.PublicKey} },
		"type []uint8":            func(c *mcpserver.JWTConfig) { c.Keys = []crypto.PublicKey{[]byte("secret")} },
		"type *ecdsa.PrivateKey":  func(c *mcpserver.JWTConfig) { c.Keys = []crypto.PublicKey{ecKey} },
	} {
		c := ok
		edit(&c)
		if _, err := mcpserver.JWTVerifier(c); err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "mcpserver: ") {
			t.Errorf("%s: %v", want, err)
		}
	}
	if _, err := mcpserver.JWTVerifier(ok); err != nil {
		t.Fatal(err)
	}
}

func TestParsePublicKeys(t *testing.T) {
	ecDER, _ := x509.MarshalPKIXPublicKey(&ecKey.PublicKey)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "issuer"}, NotAfter: time.Now().Add(time.Hour)}
	certDER, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, edPub, edKey)
	if err != nil {
		t.Fatal(err)
	}
	block := func(typ string, b []byte) string { return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: b})) }
	data := "comment\n" + block("PUBLIC KEY", ecDER) + block("RSA PUBLIC KEY", x509.MarshalPKCS1PublicKey(&rsaKey.PublicKey)) + block("CERTIFICATE", certDER)
	keys, err := mcpserver.ParsePublicKeys([]byte(data))
	if err != nil || len(keys) != 3 {
		t.Fatalf("%d keys, %v", len(keys), err)
	}
	if _, ok := keys[2].(ed25519.PublicKey); !ok {
		t.Errorf("certificate's key is %T", keys[2])
	}
	ecPriv, _ := x509.MarshalECPrivateKey(ecKey)
	small, _ := rsa.GenerateKey(rand.Reader, 1024)
	smallDER, _ := x509.MarshalPKIXPublicKey(&small.PublicKey)
	for want, data := range map[string]string{
		"no PEM public key":        "just text",
		"is a private key":         block("PUBLIC KEY", ecDER) + block("EC PRIVATE KEY", ecPriv),
		"want a PUBLIC KEY":        block("OPENSSH THING", []byte{1}),
		"block 1 (PUBLIC KEY)":     block("PUBLIC KEY", []byte("junk")),
		"2048 bits":                block("PUBLIC KEY", smallDER),
		"block 1 (CERTIFICATE)":    block("CERTIFICATE", []byte("junk")),
		"block 1 (RSA PUBLIC KEY)": block("RSA PUBLIC KEY", ecDER),
	} {
		if _, err := mcpserver.ParsePublicKeys([]byte(data)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", want, err)
		}
	}
}
